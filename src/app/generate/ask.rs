//! A generation request as a client asks it, before the rules: the
//! API decodes its message into an [`Ask`], the command line its flags, and
//! [`Ask::prepare`] applies the rules both share (the game's default family,
//! the parameters each family takes, the server's limits, a call's most
//! puzzles) to give the generator's [`GenerateRequest`] and the [`Delivery`].

use super::{
    DEFAULT_AVERAGE_DEGREE, DEFAULT_HOLE_FRACTION, DEFAULT_MAX_REJECTED_IN_A_ROW,
    DEFAULT_SPINE_FRACTION, Delivery, Family, GenerateRequest, MAX_COUNT, WinnerWanted,
};
use crate::app::{AppError, Reason};
use crate::puzzle::{Game, Limits, MAX_AUTHOR_CHARS};

/// A graph family by name, its parameters apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FamilyKind {
    Gnm,
    Tree,
    GridWithHoles,
    Bipartite,
    Caterpillar,
    Graph6,
}

impl FamilyKind {
    /// The family drawn from when a request names none: trees for tree
    /// painting (it needs a tree), bipartite graphs for the edge game (it
    /// needs bipartite ones), random graphs for the others.
    pub fn default_for(game: Game) -> FamilyKind {
        match game {
            Game::TreePaint => FamilyKind::Tree,
            Game::BipartiteEdge => FamilyKind::Bipartite,
            _ => FamilyKind::Gnm,
        }
    }

    /// The family's name in messages, as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            FamilyKind::Gnm => "gnm",
            FamilyKind::Tree => "tree",
            FamilyKind::GridWithHoles => "grid-with-holes",
            FamilyKind::Bipartite => "bipartite",
            FamilyKind::Caterpillar => "caterpillar",
            FamilyKind::Graph6 => "graph6",
        }
    }

    /// Whether the family takes the shape parameter `field`.
    fn uses(self, field: &str) -> bool {
        match field {
            "average_degree" => matches!(self, FamilyKind::Gnm | FamilyKind::Bipartite),
            "hole_fraction" => self == FamilyKind::GridWithHoles,
            "spine_fraction" => self == FamilyKind::Caterpillar,
            "graph6_lines" => self == FamilyKind::Graph6,
            _ => true,
        }
    }
}

/// A GeneratePuzzles request as asked, fields named as the API names them
/// (its errors name them so; the command line says them in flags).
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    pub game: Game,
    /// `None`: the game's default ([`FamilyKind::default_for`]).
    pub family: Option<FamilyKind>,
    pub min_vertices: u32,
    /// 0: the same as `min_vertices`.
    pub max_vertices: u32,
    pub winner: WinnerWanted,
    pub seed: u64,
    pub min_only_move_depth: u32,
    /// 0: one.
    pub count: u32,
    pub store: bool,
    pub graph6_lines: Vec<String>,
    pub average_degree: Option<f64>,
    pub hole_fraction: Option<f64>,
    pub spine_fraction: Option<f64>,
    /// 0: [`DEFAULT_MAX_REJECTED_IN_A_ROW`]; at most
    /// [`MAX_REJECTED_IN_A_ROW`](super::MAX_REJECTED_IN_A_ROW).
    pub max_rejected_in_a_row: u32,
    pub first_candidate: u64,
    pub author: String,
}

impl Ask {
    /// The generator's request and what to deliver, or the first rule the
    /// ask breaks. Fields a family does not use are refused rather than
    /// ignored, and a family whose graphs could pass the server's limits
    /// is refused before anything is drawn.
    pub fn prepare(
        self,
        limits: Limits,
        search_budget_states: u64,
    ) -> Result<(GenerateRequest, Delivery), AppError> {
        let game = self.game;
        let family = self.family()?;
        let max_vertices = match self.max_vertices {
            0 => self.min_vertices,
            n => n,
        };
        let delivery = self.delivery()?;
        let request = GenerateRequest {
            winner: self.winner,
            min_only_move_depth: self.min_only_move_depth,
            max_rejected_in_a_row: match self.max_rejected_in_a_row {
                0 => DEFAULT_MAX_REJECTED_IN_A_ROW,
                n => u64::from(n),
            },
            search_budget_states,
            ..GenerateRequest::new(game, family, self.min_vertices, max_vertices, self.seed)
        };
        within_limits(&request, limits)?;
        Ok((request, delivery))
    }

    /// The family with its parameters (each at its default when unset).
    fn family(&self) -> Result<Family, AppError> {
        let kind = self
            .family
            .unwrap_or_else(|| FamilyKind::default_for(self.game));
        let given = [
            ("average_degree", self.average_degree.is_some()),
            ("hole_fraction", self.hole_fraction.is_some()),
            ("spine_fraction", self.spine_fraction.is_some()),
            ("graph6_lines", !self.graph6_lines.is_empty()),
        ];
        if let Some((field, _)) = given
            .into_iter()
            .find(|&(field, set)| set && !kind.uses(field))
        {
            return Err(AppError::invalid(
                field,
                Reason::FieldNotForFamily,
                format!("{field}: the {} family does not use it", kind.name()),
            ));
        }
        Ok(match kind {
            FamilyKind::Gnm => Family::Gnm {
                average_degree: self.average_degree.unwrap_or(DEFAULT_AVERAGE_DEGREE),
            },
            FamilyKind::Bipartite => Family::Bipartite {
                average_degree: self.average_degree.unwrap_or(DEFAULT_AVERAGE_DEGREE),
            },
            FamilyKind::Tree => Family::Tree,
            FamilyKind::GridWithHoles => Family::GridWithHoles {
                hole_fraction: self.hole_fraction.unwrap_or(DEFAULT_HOLE_FRACTION),
            },
            FamilyKind::Caterpillar => Family::Caterpillar {
                spine_fraction: self.spine_fraction.unwrap_or(DEFAULT_SPINE_FRACTION),
            },
            FamilyKind::Graph6 => Family::Graph6 {
                lines: self.graph6_lines.clone(),
            },
        })
    }

    /// How many puzzles, from where, stored or not and by whom.
    fn delivery(&self) -> Result<Delivery, AppError> {
        let count = match self.count {
            0 => 1,
            n if n > MAX_COUNT => {
                return Err(AppError::invalid(
                    "count",
                    Reason::CountTooLarge,
                    format!(
                        "count: {n} is more than the {MAX_COUNT} puzzles a call sends; ask \
                         again with first_candidate after the last one received"
                    ),
                ));
            }
            n => n,
        };
        if self.author.chars().count() > MAX_AUTHOR_CHARS {
            return Err(AppError::invalid(
                "author",
                Reason::TextTooLong,
                format!("author: more than {MAX_AUTHOR_CHARS} characters"),
            ));
        }
        if self.first_candidate == u64::MAX {
            return Err(AppError::invalid(
                "first_candidate",
                Reason::InvalidGenerateRequest,
                format!(
                    "first_candidate: {} is the last index; nothing comes after it",
                    self.first_candidate
                ),
            ));
        }
        Ok(Delivery {
            count,
            first_candidate: self.first_candidate,
            store: self.store,
            author: self.author.clone(),
        })
    }
}

/// Refuses a request whose graphs could pass the server's limits, as a
/// submitted puzzle that large would be (a graph6 line is bounded by the
/// message that carries it).
fn within_limits(request: &GenerateRequest, limits: Limits) -> Result<(), AppError> {
    let max_vertices = request.max_vertices;
    if u64::from(max_vertices) > limits.max_vertices {
        return Err(AppError::OverLimit {
            field: "max_vertices".into(),
            message: format!(
                "max_vertices: {max_vertices} is over the server's limit of {} vertices \
                 (--max-vertices)",
                limits.max_vertices
            ),
        });
    }
    if let Some(edges) = request
        .family
        .most_edges(max_vertices.into(), request.game.is_directed())
        && edges > limits.max_edges
    {
        return Err(AppError::OverLimit {
            field: "max_vertices".into(),
            message: format!(
                "max_vertices: {} graphs on {max_vertices} vertices can have {edges} edges, \
                 over the server's limit of {} edges (--max-edges); ask for fewer vertices{}",
                request.family.name(),
                limits.max_edges,
                request.family.edge_advice()
            ),
        });
    }
    Ok(())
}

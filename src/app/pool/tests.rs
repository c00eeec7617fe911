use std::sync::Mutex as StdMutex;
use std::time::Duration;

use super::*;

fn pool(workers: usize, max_waiting: usize, per_caller: usize) -> Arc<Pool> {
    Arc::new(Pool::new(WorkerSettings {
        workers,
        max_waiting,
        max_waiting_per_caller: per_caller,
        budget: None,
    }))
}

fn writer(name: &str) -> Caller {
    Caller::Writer(name.into())
}

/// Holds the pool's one worker until the returned sender is dropped.
async fn hold_the_worker(pool: &Arc<Pool>) -> std::sync::mpsc::Sender<()> {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let holder = pool.clone();
    tokio::spawn(async move {
        holder
            .run(&writer("holder"), move || {
                let _ = held.recv();
            })
            .await
    });
    while pool.running().get() == 0 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    release
}

/// Waits until `count` jobs wait for a worker.
async fn until_waiting(pool: &Pool, count: usize) {
    while pool.waiting.get() != count {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

#[tokio::test]
async fn callers_take_turns_whatever_order_their_jobs_came_in() {
    let pool = pool(1, 64, 64);
    let release = hold_the_worker(&pool).await;
    let order = Arc::new(StdMutex::new(Vec::new()));
    let mut jobs = Vec::new();
    // The heavy caller queues five jobs, then the light one queues one.
    for (name, index) in [
        ("heavy", 1),
        ("heavy", 2),
        ("heavy", 3),
        ("heavy", 4),
        ("heavy", 5),
        ("light", 1),
    ] {
        let (queued, order) = (pool.clone(), order.clone());
        jobs.push(tokio::spawn(async move {
            queued
                .run(&writer(name), move || {
                    order.lock().unwrap().push((name, index))
                })
                .await
        }));
        until_waiting(&pool, jobs.len()).await;
    }
    drop(release);
    for job in jobs {
        job.await.unwrap().unwrap();
    }
    let order = order.lock().unwrap().clone();
    assert_eq!(
        order,
        [
            ("heavy", 1),
            ("light", 1),
            ("heavy", 2),
            ("heavy", 3),
            ("heavy", 4),
            ("heavy", 5)
        ]
    );
}

#[tokio::test]
async fn one_caller_cannot_fill_the_queue() {
    let pool = pool(1, 64, 2);
    let release = hold_the_worker(&pool).await;
    let mut jobs = Vec::new();
    for _ in 0..2 {
        let queued = pool.clone();
        jobs.push(tokio::spawn(async move {
            queued.run(&writer("heavy"), || ()).await
        }));
        until_waiting(&pool, jobs.len()).await;
    }
    let refused = pool.run(&writer("heavy"), || ()).await.unwrap_err();
    let AppError::Busy { reason, message } = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(reason, Reason::SolveQueueFull);
    assert!(
        message.contains("writer heavy already has 2 jobs waiting")
            && message.contains("--solve-queue-per-caller"),
        "{message}"
    );
    // Another caller still gets a place.
    let light = {
        let pool = pool.clone();
        tokio::spawn(async move { pool.run(&writer("light"), || 7).await })
    };
    until_waiting(&pool, 3).await;
    drop(release);
    assert_eq!(light.await.unwrap().unwrap(), 7);
    for job in jobs {
        job.await.unwrap().unwrap();
    }
}

#[tokio::test]
async fn the_whole_queue_is_bounded_too() {
    let pool = pool(1, 1, 8);
    let release = hold_the_worker(&pool).await;
    let first = {
        let pool = pool.clone();
        tokio::spawn(async move { pool.run(&writer("a"), || ()).await })
    };
    until_waiting(&pool, 1).await;
    let AppError::Busy { reason, message } = pool.run(&writer("b"), || ()).await.unwrap_err()
    else {
        panic!()
    };
    assert_eq!(reason, Reason::SolveQueueFull);
    assert!(
        message.contains("1 jobs are already waiting (--solve-queue)"),
        "{message}"
    );
    drop(release);
    first.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_job_given_up_while_waiting_leaves_its_place() {
    let pool = pool(1, 64, 1);
    let release = hold_the_worker(&pool).await;
    let gone = {
        let pool = pool.clone();
        tokio::spawn(async move { pool.run(&writer("a"), || ()).await })
    };
    until_waiting(&pool, 1).await;
    gone.abort();
    until_waiting(&pool, 0).await;
    // Its caller may queue again, and the worker, once free, is not lost
    // on the job that left.
    let again = {
        let pool = pool.clone();
        tokio::spawn(async move { pool.run(&writer("a"), || 1).await })
    };
    until_waiting(&pool, 1).await;
    drop(release);
    assert_eq!(again.await.unwrap().unwrap(), 1);
    assert_eq!(pool.run(&writer("b"), || 2).await.unwrap(), 2);
}

#[tokio::test]
async fn a_jobs_time_is_charged_to_its_caller_alone() {
    let pool = Pool::new(WorkerSettings {
        workers: 2,
        max_waiting: 8,
        max_waiting_per_caller: 8,
        // One worker-second a minute, one in hand.
        budget: WorkBudget::new(1, 1),
    });
    let alice = writer("alice");
    pool.run(&alice, || std::thread::sleep(Duration::from_millis(1100)))
        .await
        .unwrap();
    let refused = pool.check_budget(&Payer::new(alice)).unwrap_err();
    assert!(
        matches!(
            refused,
            AppError::RateLimited {
                reason: Reason::WorkBudgetExceeded,
                ..
            }
        ),
        "{refused:?}"
    );
    // Others, and the admin, are not charged for alice.
    pool.check_budget(&Payer::new(writer("bob"))).unwrap();
    pool.check_budget(&Payer::new(Caller::Admin)).unwrap();
}

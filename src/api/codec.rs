//! The wire codec of the generated service: prost, except that a request
//! that is not a valid message (broken framing, a string that is not UTF-8)
//! is the client's fault, INVALID_ARGUMENT, not INTERNAL as tonic-prost
//! reports it.

use std::marker::PhantomData;

use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder};
use tonic_prost::{ProstDecoder, ProstEncoder};

use crate::app::AppError;
use crate::app::Reason;

/// `ProstCodec` with client-fault decode errors.
#[derive(Debug, Clone)]
pub struct WireCodec<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for WireCodec<T, U> {
    fn default() -> Self {
        WireCodec(PhantomData)
    }
}

impl<T, U> Codec for WireCodec<T, U>
where
    T: prost::Message + Send + 'static,
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = WireDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::default()
    }

    fn decoder(&mut self) -> Self::Decoder {
        WireDecoder(ProstDecoder::default())
    }
}

/// Decodes with prost and reports undecodable input as INVALID_ARGUMENT.
#[derive(Debug)]
pub struct WireDecoder<U>(ProstDecoder<U>);

impl<U: prost::Message + Default> Decoder for WireDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        self.0.decode(buf).map_err(|status| {
            // No field to name: the message as a whole did not decode.
            AppError::invalid(
                "",
                Reason::MalformedMessage,
                format!("the message cannot be decoded: {}", status.message()),
            )
            .into()
        })
    }

    fn buffer_settings(&self) -> BufferSettings {
        self.0.buffer_settings()
    }
}

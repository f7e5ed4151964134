//! Reading a turn's Server-Sent Events into `ChatEvent`s, for the browser (from the
//! `chat_turn` server function) and anything else reading `POST /api/chat`. Network
//! reads are re-framed by `eventsource-stream`: an event, or a multi-byte
//! character, split across reads arrives whole; events a newer server sends that
//! this build does not know are skipped.

use super::events::ChatEvent;
use eventsource_stream::Eventsource;
use futures::{Stream, StreamExt};

/// Why a turn's stream could not be read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamError {
    /// The connection broke (or the body was not SSE) before a terminal event.
    Interrupted,
}

/// The typed events in `chunks` (an SSE body, read in any pieces).
pub fn chat_events<B, E>(
    chunks: impl Stream<Item = Result<B, E>>,
) -> impl Stream<Item = Result<ChatEvent, StreamError>>
where
    B: AsRef<[u8]>,
{
    chunks.eventsource().filter_map(|item| async move {
        match item {
            Err(_) => Some(Err(StreamError::Interrupted)),
            Ok(ev) => serde_json::from_str::<ChatEvent>(&ev.data).ok().map(Ok),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(body: &str, cuts: &[usize]) -> Vec<Result<Vec<u8>, std::convert::Infallible>> {
        let bytes = body.as_bytes();
        let mut out = Vec::new();
        let mut from = 0;
        for &c in cuts.iter().chain(std::iter::once(&bytes.len())) {
            out.push(Ok(bytes[from..c].to_vec()));
            from = c;
        }
        out
    }

    fn read(body: &str, cuts: &[usize]) -> Vec<Result<ChatEvent, StreamError>> {
        futures::executor::block_on(
            chat_events(futures::stream::iter(pieces(body, cuts))).collect(),
        )
    }

    const BODY: &str = "id: 0\nevent: token\ndata: {\"type\":\"token\",\"text\":\"Grüße \\u00e9 ü\"}\n\nid: 1\nevent: token\ndata: {\"type\":\"token\",\"text\":\"é\"}\n\n";

    /// Every cut of the body, inside an event, inside a multi-byte character or
    /// between the two newlines that end an event, reads the same two events.
    #[test]
    fn events_split_across_reads_arrive_whole() {
        let whole = read(BODY, &[]);
        assert_eq!(whole.len(), 2);
        assert_eq!(
            whole[0],
            Ok(ChatEvent::Token {
                text: "Grüße é ü".into()
            })
        );
        for cut in 1..BODY.len() {
            assert_eq!(read(BODY, &[cut]), whole, "cut at byte {cut}");
        }
        let every_byte: Vec<usize> = (1..BODY.len()).collect();
        assert_eq!(read(BODY, &every_byte), whole);
    }

    #[test]
    fn unknown_events_are_skipped_and_keep_alives_ignored() {
        let body = ":\n\nevent: sparkle\ndata: {\"type\":\"sparkle\"}\n\nevent: token\ndata: {\"type\":\"token\",\"text\":\"a\"}\n\n";
        assert_eq!(
            read(body, &[3]),
            vec![Ok(ChatEvent::Token { text: "a".into() })]
        );
    }

    #[test]
    fn a_broken_connection_is_an_error() {
        let chunks = futures::stream::iter(vec![
            Ok(b"event: token\ndata: {\"type\":\"token\",\"text\":\"a\"}\n\n".to_vec()),
            Err("reset"),
        ]);
        let got: Vec<_> = futures::executor::block_on(chat_events(chunks).collect());
        assert_eq!(got.len(), 2);
        assert_eq!(got[1], Err(StreamError::Interrupted));
    }
}

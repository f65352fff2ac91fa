//! Readers that tell a test what was done with them.

use std::io::{self, Cursor, Read};
use std::sync::mpsc::Sender;

/// Reads `bytes` and sends `()` once it has been read to its end: a test
/// waits on the channel to see that a thread of the code under test read
/// its input through, without timing it.
///
/// ```
/// use std::io::Read;
/// use std::sync::mpsc;
/// use urlspec_test_support::io::SaysEnd;
/// let (tx, rx) = mpsc::channel();
/// let mut reader = SaysEnd::new(b"ab".to_vec(), tx);
/// assert!(rx.try_recv().is_err());
/// reader.read_to_end(&mut Vec::new()).unwrap();
/// assert!(rx.try_recv().is_ok());
/// ```
pub struct SaysEnd {
    bytes: Cursor<Vec<u8>>,
    ended: Sender<()>,
}

impl SaysEnd {
    /// A reader of `bytes` that tells `ended` when it reaches their end.
    pub fn new(bytes: Vec<u8>, ended: Sender<()>) -> SaysEnd {
        SaysEnd { bytes: Cursor::new(bytes), ended }
    }
}

impl Read for SaysEnd {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.bytes.read(buf)?;
        if n == 0 && !buf.is_empty() {
            let _ = self.ended.send(());
        }
        Ok(n)
    }
}

//! One threaded stage of the capture pipeline: a worker thread fed through a bounded channel,
//! handing its emptied buffers back through a second one, and joined for its result.
//!
//! Every thread hartscope runs beside the hart is one: the commit log's writer
//! (`iss::commitlog`), the tandem writer's (`tandem::writer`), the ingress port's and the
//! N-Trace encoder's (`encoder::capture`, `encoder::encoder::EncoderThread`). Each keeps its
//! own queue depth (the depths were tuned: see the comments where they are chosen).
//!
//! The hart never waits on anything but a full queue: a send to a worker that has ended (after
//! an error, or a panic) is dropped, and [`Stage::join`] reports what happened to it: its
//! result, or [`Panicked`] naming the thread.

use crossbeam_channel::{bounded, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;

/// The stage's thread panicked; `what` names it ("the ingress port's thread").
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{what} panicked")]
pub struct Panicked {
    pub what: &'static str,
}

impl From<Panicked> for std::io::Error {
    fn from(p: Panicked) -> Self {
        std::io::Error::other(p.to_string())
    }
}

/// The worker's side: the items sent to it, and the way back for emptied buffers.
pub struct Inbox<T> {
    rx: Receiver<T>,
    back: Sender<T>,
}

impl<T> Inbox<T> {
    /// The items, in order, until the sending side is finished (joined or dropped).
    ///
    /// While items keep coming, the worker polls for the next one between sleeps of 50 us
    /// instead of blocking on the queue: a send to a worker blocked on it wakes the worker
    /// with a system call, which costs the sender (the hart) several microseconds, once per
    /// buffer. After 16 empty polls in a row, the worker blocks (and the next send wakes it,
    /// once), so an idle hart leaves an idle worker.
    pub fn iter(&self) -> Items<'_, T> {
        Items {
            rx: &self.rx,
            idle: 0,
        }
    }

    /// Hand an emptied buffer back for reuse; dropped when the way back is full.
    #[inline]
    pub fn give_back(&self, item: T) {
        let _ = self.back.try_send(item);
    }
}

/// Empty polls in a row after which a worker blocks on its queue ([`Inbox::iter`]): one or
/// two milliseconds of [`POLL_SLEEP`]s (each sleep is longer than asked, by the timer's
/// slack), longer than a running hart takes to fill a buffer, so that its sends find the
/// worker polling.
const IDLE_POLLS: u32 = 16;

/// The sleep between a worker's polls of an empty queue.
const POLL_SLEEP: std::time::Duration = std::time::Duration::from_micros(50);

/// The items of an [`Inbox`] ([`Inbox::iter`]).
pub struct Items<'a, T> {
    rx: &'a Receiver<T>,
    /// Empty polls since the last item.
    idle: u32,
}

impl<T> Iterator for Items<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        loop {
            match self.rx.try_recv() {
                Ok(item) => {
                    self.idle = 0;
                    return Some(item);
                }
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) if self.idle < IDLE_POLLS => {
                    self.idle += 1;
                    std::thread::sleep(POLL_SLEEP);
                }
                Err(TryRecvError::Empty) => {
                    self.idle = 0;
                    return self.rx.recv().ok();
                }
            }
        }
    }
}

/// A worker thread fed with `T`s, returning `R`.
pub struct Stage<T: Send + 'static, R: Send + 'static> {
    tx: Option<Sender<T>>,
    recycled: Receiver<T>,
    handle: Option<JoinHandle<R>>,
    what: &'static str,
}

impl<T: Send + 'static, R: Send + 'static> Stage<T, R> {
    /// Start thread `name` (`what` names it in [`Panicked`]) running `work` on an inbox of
    /// at most `depth` queued items, with room for `recycle` buffers on the way back.
    pub fn spawn(
        name: &str,
        what: &'static str,
        depth: usize,
        recycle: usize,
        work: impl FnOnce(Inbox<T>) -> R + Send + 'static,
    ) -> std::io::Result<Self> {
        let (tx, rx) = bounded::<T>(depth);
        let (back, recycled) = bounded::<T>(recycle);
        let handle = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || work(Inbox { rx, back }))?;
        Ok(Stage {
            tx: Some(tx),
            recycled,
            handle: Some(handle),
            what,
        })
    }

    /// Queue `item`, waiting while the queue is full. Dropped if the worker has ended
    /// ([`Stage::join`] says why).
    #[inline]
    pub fn send(&self, item: T) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(item);
        }
    }

    /// A buffer the worker gave back, if one is there.
    #[inline]
    pub fn recycled(&self) -> Option<T> {
        self.recycled.try_recv().ok()
    }

    /// A buffer the worker gives back, waiting for it (for a fixed pool of buffers). `None`
    /// if the worker has ended.
    pub fn wait_recycled(&self) -> Option<T> {
        self.recycled.recv().ok()
    }

    /// Close the queue (the worker's [`Inbox::iter`] ends once it has taken everything) and
    /// wait for the worker's result.
    pub fn join(mut self) -> Result<R, Panicked> {
        self.end()
    }

    fn end(&mut self) -> Result<R, Panicked> {
        drop(self.tx.take());
        match self.handle.take() {
            Some(h) => h.join().map_err(|_| Panicked { what: self.what }),
            None => Err(Panicked { what: self.what }),
        }
    }
}

impl<T: Send + 'static, R: Send + 'static> Drop for Stage<T, R> {
    /// Not joined (an error path): the worker still takes what was queued, and ends.
    fn drop(&mut self) {
        if self.handle.is_some() {
            let _ = self.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    /// A writer stage as the commit log's: writes buffers, gives them back, returns what it
    /// wrote or its first error.
    fn writer(fail_at: Option<usize>) -> Stage<Vec<u8>, io::Result<Vec<u8>>> {
        Stage::spawn(
            "test-writer",
            "the test writer's thread",
            2,
            4,
            move |inbox: Inbox<Vec<u8>>| {
                let mut out = Vec::new();
                let mut result = Ok(());
                for mut b in inbox.iter() {
                    if result.is_ok() {
                        if fail_at.is_some_and(|n| out.len() + b.len() > n) {
                            result = Err(io::Error::other("disk full"));
                        } else {
                            out.extend_from_slice(&b);
                        }
                    }
                    b.clear();
                    inbox.give_back(b);
                }
                result.map(|()| out)
            },
        )
        .unwrap()
    }

    #[test]
    fn results_come_back_at_join() {
        let s = writer(None);
        for i in 0..10u8 {
            let mut b = s.recycled().unwrap_or_default();
            b.extend_from_slice(&[i; 3]);
            s.send(b);
        }
        let out = s.join().unwrap().unwrap();
        assert_eq!(out.len(), 30);
        assert_eq!(&out[27..], &[9, 9, 9]);
    }

    #[test]
    fn the_stages_error_comes_back_at_join() {
        let s = writer(Some(5));
        for _ in 0..10 {
            s.send(vec![1, 2, 3]);
        }
        let e = s.join().unwrap().unwrap_err();
        assert_eq!(e.to_string(), "disk full");
    }

    #[test]
    fn a_panic_is_reported_with_the_threads_name() {
        let s: Stage<u32, ()> = Stage::spawn(
            "test-panic",
            "the test thread",
            1,
            1,
            |inbox: Inbox<u32>| {
                for v in inbox.iter() {
                    assert!(v < 3, "a bad item");
                }
            },
        )
        .unwrap();
        for v in 0..10 {
            // Sends after the panic are dropped, never block.
            s.send(v);
        }
        let p = s.join().unwrap_err();
        assert_eq!(p.to_string(), "the test thread panicked");
        let e: io::Error = p.into();
        assert_eq!(e.to_string(), "the test thread panicked");
    }

    /// A worker that found its queue empty for longer than its polls blocks on it, and the
    /// next item still reaches it (as do items sent while it polls).
    #[test]
    fn items_reach_a_worker_that_polls_or_blocks() {
        let s = writer(None);
        s.send(vec![1]);
        // Past the polls: the worker blocks.
        std::thread::sleep(POLL_SLEEP * (4 * IDLE_POLLS));
        s.send(vec![2]);
        // Within them.
        std::thread::sleep(POLL_SLEEP);
        s.send(vec![3]);
        assert_eq!(s.join().unwrap().unwrap(), vec![1, 2, 3]);
    }

    #[test]
    fn buffers_are_recycled() {
        let s = writer(None);
        let mut first = Vec::with_capacity(1 << 16);
        first.push(7);
        let ptr = first.as_ptr();
        s.send(first);
        // The worker gives the buffer back emptied; waiting for it returns the same one.
        let back = s.wait_recycled().unwrap();
        assert!(back.is_empty());
        assert_eq!(back.as_ptr(), ptr);
        assert!(back.capacity() >= 1 << 16);
        assert!(s.recycled().is_none());
        s.send(back);
        assert_eq!(s.join().unwrap().unwrap(), vec![7]);
    }

    #[test]
    fn dropping_a_stage_lets_the_worker_finish() {
        let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let d = done.clone();
        let s: Stage<u32, ()> = Stage::spawn(
            "test-drop",
            "the test thread",
            4,
            1,
            move |inbox: Inbox<u32>| {
                for _ in inbox.iter() {
                    d.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            },
        )
        .unwrap();
        for v in 0..3 {
            s.send(v);
        }
        drop(s);
        assert_eq!(done.load(std::sync::atomic::Ordering::SeqCst), 3);
    }
}

//! A pseudo-terminal that runs `sim play`, and the typing and reading the pty tests share
//! (`play`, `play_hints`).
// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a prompt may take to come (the machine may be loaded).
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// `sim play` running on a pseudo-terminal.
pub struct Pty {
    master: File,
    out: Arc<Mutex<Vec<u8>>>,
    /// Bytes of `out` already matched.
    seen: usize,
    child: Child,
}

impl Pty {
    pub fn spawn(args: &[&str]) -> Self {
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two new file descriptors; the null name, termios and window
        // size ask for the defaults.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors were just opened and are owned here alone.
        let (master, slave) = unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let io = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup the pty"));
        let child = Command::new(env!("CARGO_BIN_EXE_sim"))
            .arg("play")
            .args(args)
            .stdin(io(&slave))
            .stdout(io(&slave))
            .stderr(io(&slave))
            .spawn()
            .expect("run sim play");
        // Only the child holds the slave now: its exit ends the master's output.
        drop(slave);
        let out = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().expect("dup the master");
        let sink = Arc::clone(&out);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // A read error (EIO once the child has closed the slave) ends the output.
            while let Ok(n @ 1..) = reader.read(&mut buf) {
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Self {
            master,
            out,
            seen: 0,
            child,
        }
    }

    /// Waits for the first of `needles` after what was matched so far: the text before it and
    /// which needle came.
    pub fn expect_any(&mut self, needles: &[&str]) -> (String, usize) {
        let start = Instant::now();
        loop {
            {
                let out = self.out.lock().unwrap();
                let rest = &out[self.seen..];
                let found = needles
                    .iter()
                    .enumerate()
                    .filter_map(|(k, n)| find(rest, n.as_bytes()).map(|at| (at, k)))
                    .min();
                if let Some((at, k)) = found {
                    let before = String::from_utf8_lossy(&rest[..at]).into_owned();
                    self.seen += at + needles[k].len();
                    return (before, k);
                }
                assert!(
                    start.elapsed() < TIMEOUT,
                    "none of {needles:?} in:\n{}",
                    String::from_utf8_lossy(rest)
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn expect(&mut self, needle: &str) -> String {
        self.expect_any(&[needle]).0
    }

    pub fn send_line(&mut self, line: &str) {
        self.master
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }

    /// Ctrl-D at the start of a line: the end of input.
    pub fn send_eof(&mut self) {
        self.master.write_all(&[4]).unwrap();
    }

    /// The exit code once `sim` has ended.
    pub fn exit_code(mut self) -> i32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().expect("sim exits with a code");
            }
            assert!(start.elapsed() < TIMEOUT, "sim did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

pub const PROMPT: &str = ", q to quit)> ";
pub const WON: &str = "\nWON: ";
pub const LOST: &str = "\nLOST: ";
pub const PAUSE: &str = "[Enter: next, q: quit]> ";
pub const SAME: &str = "events: every one the same as the record";

/// Waits for the next prompt or the game's end: the text before it, and whether it is a prompt.
pub fn next(p: &mut Pty) -> (String, bool) {
    let (before, k) = p.expect_any(&[PROMPT, WON, LOST]);
    (before, k == 0)
}

/// Plays a whole game by `choose` (from the text before each prompt), answering the first prompt
/// with a bad line first. Returns every screen shown before a prompt and the count of prompts.
pub fn whole_game(p: &mut Pty, choose: impl Fn(&str) -> &'static str) -> (Vec<String>, usize) {
    let mut screens = Vec::new();
    let mut prompts = 0;
    loop {
        let (screen, prompt) = next(p);
        if !prompt {
            screens.push(screen);
            break;
        }
        if prompts == 0 {
            p.send_line("banana");
            let again = p.expect(PROMPT);
            assert!(again.contains("not a choice: \"banana\""), "{again}");
            assert!(
                again.contains("  1) "),
                "the choices are listed again: {again}"
            );
        }
        p.send_line(choose(&screen));
        screens.push(screen);
        prompts += 1;
    }
    (screens, prompts)
}

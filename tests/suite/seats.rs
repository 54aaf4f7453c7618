//! The seat flags (`--vs`, `--seat`, `--players`) at the command line: refused by name where a
//! game has no such seat, accepted where it does, and one-seat games unchanged by them.

use crate::common::*;

#[test]
fn seat_flags_a_one_seat_game_lacks_exit_2_name_the_flag_and_write_nothing() {
    let dir = TempDir::new("seat-flags-refused");
    let cases: [(&[&str], &str); 4] = [
        (&["--vs", "bank-at-16"], "--vs bank-at-16"),
        (&["--seat", "1=bank-at-16"], "--seat 1=bank-at-16"),
        (&["--seat", "one=bank-at-16"], "SEAT=POLICY"),
        (&["--players", "2"], "--players 2"),
    ];
    assert_each_refused_naming("crownfall", &dir, "1B", cases);
}

#[test]
fn seat_zero_of_a_one_seat_game_is_its_policy() {
    let dir = TempDir::new("seat-zero");
    let plain = crownfall_to(
        &dir.join("plain"),
        &argv!["--games", "20000", "-p", "bank-at-15"],
    );
    let seated = crownfall_to(
        &dir.join("seated"),
        &argv![
            "--games",
            "20000",
            "-p",
            "bank-at-17",
            "--seat",
            "0=bank-at-15"
        ],
    );
    assert!(plain.status.success() && seated.status.success());
    let a = read_parquet(&dir.join("plain/summary.parquet"));
    let b = read_parquet(&dir.join("seated/summary.parquet"));
    assert_eq!(str_at(&b, "policy", 0), "bank-at-15");
    assert_eq!(u64_at(&a, "wins", 0), u64_at(&b, "wins", 0));
}

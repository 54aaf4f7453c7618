//! Bradley-Terry ratings of players from a matrix of wins, on an Elo scale, with 95% intervals
//! from the observed information.
//!
//! Player `i` beats `j` with probability `p_i / (p_i + p_j)`. The strengths are fitted by
//! maximum likelihood with Hunter's MM iteration, `p_i <- W_i / sum_j n_ij / (p_i + p_j)` (`W_i`
//! the wins of `i`, `n_ij` the games of `i` and `j`; a draw counts half a win to each), and
//! reported as Elo points `400 log10 p_i`, centred on a mean of 0. The covariance of the centred
//! log-strengths is the pseudo-inverse of the observed (Fisher) information `L`, with
//! `L_ij = -n_ij q_ij (1 - q_ij)` off the diagonal and row sums 0: for a matrix whose null space
//! is the constant vector, `L+ = (L + J/k)^-1 - J/k` with `J` all ones. The intervals treat games
//! as independent; where pairs of players met on the same deals the games of different pairs
//! are correlated, which the intervals ignore.

/// Elo points per natural-log unit of strength.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// Fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo points per player, mean 0.
    pub elo: Vec<f64>,
    /// Standard error of each rating, in Elo points.
    pub se: Vec<f64>,
    /// MM iterations used.
    pub iterations: usize,
    /// True if the wins left some group of players unbeaten (or never winning) against the
    /// rest, so the plain fit diverges: every pair then got half a virtual win each way.
    pub smoothed: bool,
}

impl Ratings {
    /// The 95% interval of player `i`'s rating.
    pub fn interval(&self, i: usize) -> (f64, f64) {
        let half = crate::stats::interval::Z95 * self.se[i];
        (self.elo[i] - half, self.elo[i] + half)
    }
}

/// True if every player can be reached from every other along "beat at least once" edges: the
/// condition for the fit to exist.
fn strongly_connected(wins: &[Vec<f64>]) -> bool {
    let k = wins.len();
    let reach = |forward: bool| {
        let mut seen = vec![false; k];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in 0..k {
                let w = if forward { wins[i][j] } else { wins[j][i] };
                if !seen[j] && w > 0.0 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.into_iter().all(|s| s)
    };
    k == 0 || (reach(true) && reach(false))
}

/// Fits Bradley-Terry strengths to `wins` (`wins[i][j]`: games `i` won against `j`, draws as
/// halves; the diagonal is ignored). At least two players.
pub fn bradley_terry(wins: &[Vec<f64>]) -> Ratings {
    let k = wins.len();
    assert!(k >= 2 && wins.iter().all(|r| r.len() == k));
    let smoothed = !strongly_connected(wins);
    let w = |i: usize, j: usize| {
        if i == j {
            0.0
        } else {
            wins[i][j] + if smoothed { 0.5 } else { 0.0 }
        }
    };
    let n = |i: usize, j: usize| w(i, j) + w(j, i);
    let total: Vec<f64> = (0..k).map(|i| (0..k).map(|j| w(i, j)).sum()).collect();
    let mut p = vec![1.0f64; k];
    let mut iterations = 0;
    while iterations < 100_000 {
        iterations += 1;
        let mut next: Vec<f64> = (0..k)
            .map(|i| {
                let denom: f64 = (0..k)
                    .filter(|&j| j != i)
                    .map(|j| n(i, j) / (p[i] + p[j]))
                    .sum();
                if denom > 0.0 { total[i] / denom } else { p[i] }
            })
            .collect();
        // Geometric mean 1.
        let log_mean = next.iter().map(|x| x.ln()).sum::<f64>() / k as f64;
        next.iter_mut().for_each(|x| *x /= log_mean.exp());
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-13 {
            break;
        }
    }
    // Observed information and its pseudo-inverse.
    let mut info = vec![vec![0.0f64; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i != j {
                let q = p[i] / (p[i] + p[j]);
                let v = n(i, j) * q * (1.0 - q);
                info[i][j] = -v;
                info[i][i] += v;
            }
        }
    }
    let shifted: Vec<Vec<f64>> = info
        .iter()
        .map(|row| row.iter().map(|x| x + 1.0 / k as f64).collect())
        .collect();
    let inverse = invert(&shifted);
    let se = (0..k)
        .map(|i| ELO * (inverse[i][i] - 1.0 / k as f64).max(0.0).sqrt())
        .collect();
    let log_mean = p.iter().map(|x| x.ln()).sum::<f64>() / k as f64;
    Ratings {
        elo: p.iter().map(|x| ELO * (x.ln() - log_mean)).collect(),
        se,
        iterations,
        smoothed,
    }
}

/// The inverse of a small symmetric positive-definite matrix (Gauss-Jordan with pivoting).
fn invert(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..k).map(|j| f64::from(u8::from(i == j))));
            r
        })
        .collect();
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .expect("a row");
        a.swap(col, pivot);
        let d = a[col][col];
        a[col].iter_mut().for_each(|x| *x /= d);
        for r in 0..k {
            if r != col {
                let f = a[r][col];
                if f != 0.0 {
                    let pivot_row = a[col].clone();
                    a[r].iter_mut()
                        .zip(&pivot_row)
                        .for_each(|(x, y)| *x -= f * y);
                }
            }
        }
    }
    a.into_iter().map(|r| r[k..].to_vec()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_match_the_closed_form() {
        // 300 of 400 won: p1/p2 = 300/100, Elo gap 400 log10 3; var(theta1 - theta2) =
        // 1 / (n q (1 - q)), and each centred rating carries half the gap.
        let r = bradley_terry(&[vec![0.0, 300.0], vec![100.0, 0.0]]);
        let gap = 400.0 * 3f64.log10();
        assert!((r.elo[0] - gap / 2.0).abs() < 1e-9, "{r:?}");
        assert!((r.elo[1] + gap / 2.0).abs() < 1e-9, "{r:?}");
        let se_gap = ELO * (1.0f64 / (400.0 * 0.75 * 0.25)).sqrt();
        assert!(
            (r.se[0] - se_gap / 2.0).abs() < 1e-9,
            "{r:?} vs {}",
            se_gap / 2.0
        );
        assert!(!r.smoothed);
    }

    #[test]
    fn exact_expected_wins_are_a_fixed_point_that_recovers_the_strengths() {
        // Strengths 1, 2, 4, 8 and 1000 games a pair with exactly the expected wins: the
        // likelihood's maximum is at the true strengths.
        let s = [1.0f64, 2.0, 4.0, 8.0];
        let wins: Vec<Vec<f64>> = (0..4)
            .map(|i| {
                (0..4)
                    .map(|j| {
                        if i == j {
                            0.0
                        } else {
                            1000.0 * s[i] / (s[i] + s[j])
                        }
                    })
                    .collect()
            })
            .collect();
        let r = bradley_terry(&wins);
        for i in 0..4 {
            for j in 0..4 {
                let want = 400.0 * (s[i] / s[j]).log10();
                assert!((r.elo[i] - r.elo[j] - want).abs() < 1e-7, "{r:?}");
            }
        }
        assert!(r.elo.iter().sum::<f64>().abs() < 1e-9);
        // The middle players are pinned down best; the intervals are ordered around the ratings.
        let (lo, hi) = r.interval(3);
        assert!(lo < r.elo[3] && r.elo[3] < hi);
        assert!(r.se.iter().all(|&x| x > 0.0 && x < 30.0), "{r:?}");
    }

    #[test]
    fn an_unbeaten_player_is_smoothed_instead_of_diverging() {
        let r = bradley_terry(&[vec![0.0, 50.0], vec![0.0, 0.0]]);
        assert!(r.smoothed);
        // 50.5 to 0.5: a finite gap of 400 log10 101.
        assert!(
            (r.elo[0] - r.elo[1] - 400.0 * 101f64.log10()).abs() < 1e-6,
            "{r:?}"
        );
    }
}

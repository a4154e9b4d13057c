//! Standard algebraic notation for our own board, written and read. shakmaty's cannot be used for
//! every position a dice game reaches (a king left in check by a passed turn), so the moves a rule
//! set allows are written here: piece letter, the least disambiguation, `x`, promotion `=Q`,
//! castling `O-O`/`O-O-O`, `+` for check and `#` for checkmate; a pass is `--`.

use crate::board::Board;
use crate::board::chessmove::Move;
use crate::board::movegen::{MoveList, gives_check, has_legal_move};
use crate::board::piece::Role;

/// The move in SAN among `candidates` (the moves that could be meant: the legal moves, or the
/// turns the rules allow), with `+`/`#` if it gives check or mate.
pub fn to_san(board: &Board, m: Move, candidates: &[Move]) -> String {
    let mut text = san_body(board, m, candidates);
    if !m.is_null() {
        let mut after = board.clone();
        after.play(m);
        if after.king(after.turn()).is_some() && gives_check(board, m) {
            text.push(if has_legal_move(&after) { '+' } else { '#' });
        }
    }
    text
}

/// SAN without the check suffix (variants without check).
pub fn san_body(board: &Board, m: Move, candidates: &[Move]) -> String {
    if m.is_null() {
        return "--".into();
    }
    if m.is_castle() {
        return if m.to().file() > m.from().file() { "O-O".into() } else { "O-O-O".into() };
    }
    let role = board.role_at(m.from()).expect("a piece moves");
    let capture = board.is_capture(m);
    let mut text = String::new();
    if role == Role::Pawn {
        if capture {
            text.push((b'a' + m.from().file()) as char);
        }
    } else {
        text.push(role.char().to_ascii_uppercase());
        // Other pieces of the same kind that could go to the same square.
        let rivals: Vec<Move> = candidates
            .iter()
            .copied()
            .filter(|o| {
                !o.is_castle() && o.to() == m.to() && o.from() != m.from() && board.role_at(o.from()) == Some(role)
            })
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|o| o.from().file() == m.from().file());
            let same_rank = rivals.iter().any(|o| o.from().rank() == m.from().rank());
            if !same_file {
                text.push((b'a' + m.from().file()) as char);
            } else if !same_rank {
                text.push((b'1' + m.from().rank()) as char);
            } else {
                text.push_str(&m.from().to_string());
            }
        }
    }
    if capture {
        text.push('x');
    }
    text.push_str(&m.to().to_string());
    if let Some(p) = m.promotion_role() {
        text.push('=');
        text.push(p.char().to_ascii_uppercase());
    }
    text
}

/// The candidate that `text` names in SAN (check marks, annotations like `!?`, a missing `=` and
/// `0-0` castling accepted), if exactly one does.
pub fn from_san(board: &Board, text: &str, candidates: &[Move]) -> Option<Move> {
    let trimmed = text.trim_end_matches(['+', '#', '!', '?']);
    let wanted = normalise(trimmed);
    let matches: MoveList =
        candidates.iter().copied().filter(|&m| normalise(&san_body(board, m, candidates)) == wanted).collect();
    if matches.len() == 1 { Some(matches[0]) } else { None }
}

fn normalise(san: &str) -> String {
    san.replace('0', "O").replace('=', "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::{find_uci, legal_moves};

    fn san_of(fen: &str, uci: &str) -> String {
        let board = Board::from_fen(fen).unwrap();
        let legal = legal_moves(&board);
        to_san(&board, find_uci(&board, &legal, uci).unwrap(), &legal)
    }

    #[test]
    fn writes_and_reads_san() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san_of(start, "e2e4"), "e4");
        assert_eq!(san_of(start, "g1f3"), "Nf3");
        // Disambiguation by file, by rank, by square.
        assert_eq!(san_of("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1"), "Rad1");
        assert_eq!(san_of("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "a1d1"), "Rd1");
        assert_eq!(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        assert_eq!(san_of("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"), "O-O");
        assert_eq!(san_of("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), "b8=Q+");
        assert_eq!(san_of("6k1/5ppp/8/8/8/8/5PPP/1Q4K1 w - - 0 1", "b1b8"), "Qb8#");
        assert_eq!(san_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        let board = Board::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let legal = legal_moves(&board);
        for (text, uci) in
            [("O-O", "e1g1"), ("0-0", "e1g1"), ("O-O-O", "e1c1"), ("Kf2", "e1f2"), ("Rh8+", "h1h8"), ("Rg1!?", "h1g1")]
        {
            let m = from_san(&board, text, &legal).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(m.to_uci(false).to_string(), uci);
        }
        let board = Board::from_fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1").unwrap();
        let legal = legal_moves(&board);
        assert_eq!(from_san(&board, "Rd1", &legal), None, "ambiguous");
        assert_eq!(from_san(&board, "Rfd1", &legal).map(|m| m.to_uci(false).to_string()), Some("f1d1".into()));
        assert_eq!(from_san(&board, "Qd1", &legal), None, "no queen");
    }
}

//! Standard algebraic notation on a big board: piece letter, the least disambiguation (file,
//! then rank, which may have two digits, then the square), `x`, the target (`a10`), promotion
//! `=Q`; a pass is `--`. Neither big variant has check, so no `+` or `#` is written.

use super::board::BigBoard;
use super::movegen::BigMove;
use crate::board::piece::Role;

/// The move in SAN among `candidates` (the moves that could be meant: those the rules allow).
pub fn to_san(board: &BigBoard, m: BigMove, candidates: &[BigMove]) -> String {
    if m == BigMove::NULL {
        return "--".into();
    }
    let role = board.piece_at(m.from).expect("a piece moves").role;
    let capture = board.captured(m).is_some();
    let mut text = String::new();
    let file = |sq: super::BigSquare| (b'a' + sq.file()) as char;
    if role == Role::Pawn {
        if capture {
            text.push(file(m.from));
        }
    } else {
        text.push(role.char().to_ascii_uppercase());
        // Other pieces of the same kind that could go to the same square.
        let rivals: Vec<BigMove> = candidates
            .iter()
            .copied()
            .filter(|o| {
                *o != BigMove::NULL
                    && o.to == m.to
                    && o.from != m.from
                    && board.piece_at(o.from).map(|p| p.role) == Some(role)
            })
            .collect();
        if !rivals.is_empty() {
            if !rivals.iter().any(|o| o.from.file() == m.from.file()) {
                text.push(file(m.from));
            } else if !rivals.iter().any(|o| o.from.rank() == m.from.rank()) {
                text.push_str(&(m.from.rank() + 1).to_string());
            } else {
                text.push_str(&m.from.to_string());
            }
        }
    }
    if capture {
        text.push('x');
    }
    text.push_str(&m.to.to_string());
    if let Some(p) = m.promotion {
        text.push('=');
        text.push(p.char().to_ascii_uppercase());
    }
    text
}

/// The candidate that `text` names in SAN (annotations like `!?` and a missing `=` accepted), if
/// exactly one does.
pub fn from_san(board: &BigBoard, text: &str, candidates: &[BigMove]) -> Option<BigMove> {
    let wanted = text.trim_end_matches(['+', '#', '!', '?']).replace('=', "");
    let mut matches = candidates.iter().copied().filter(|&m| to_san(board, m, candidates).replace('=', "") == wanted);
    let first = matches.next()?;
    matches.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::big::{BigMoveList, BigSpec};

    fn moves(board: &BigBoard) -> BigMoveList {
        let mut list = BigMoveList::new();
        board.moves(&mut list);
        list
    }

    fn san_of(fen: &str, spec: BigSpec, uci: &str) -> String {
        let board = BigBoard::from_fen(fen, spec).unwrap();
        let list = moves(&board);
        to_san(&board, BigMove::parse(&board, uci).unwrap(), &list)
    }

    #[test]
    fn writes_san_on_ten_and_twelve_squares() {
        let ten = crate::rules::brainking10::SPEC;
        let start = "rnbqkkkbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1";
        assert_eq!(san_of(start, ten, "e2e4"), "e4");
        assert_eq!(san_of(start, ten, "b1c3"), "Nc3");
        // Rooks on a1 and a10 both reach a5: by rank, with two digits for the tenth.
        let rooks = "R8k/10/10/10/10/10/10/10/10/R8K w - - 0 1";
        assert_eq!(san_of(rooks, ten, "a10a5"), "R10a5");
        assert_eq!(san_of(rooks, ten, "a1a5"), "R1a5");
        // Three kings, two of which reach f2: by file.
        assert_eq!(san_of("k9/10/10/10/10/10/10/10/10/4K1K3 w - - 0 1", ten, "e1f2"), "Kef2");
        // En passant on 10x10, a promotion taking a king on 12x12.
        assert_eq!(san_of("k9/10/10/10/10/10/2pP6/10/10/K9 b - d3 0 1", ten, "c4d3"), "cxd3");
        assert_eq!(
            san_of("1k10/P11/12/12/12/12/12/12/12/12/12/K11 w - - 0 1", crate::rules::grand::SPEC, "a11b12q"),
            "axb12=Q"
        );
    }

    #[test]
    fn every_move_reads_back_from_its_san() {
        let rules = [
            (
                "rnbqkkkbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1",
                crate::rules::brainking10::SPEC,
            ),
            (
                "r2rq2qr2r/nnbb1kk1bbnn/nnbb1kk1bbnn/r2rq2qr2r/pppppppppppp/pppppppppppp/PPPPPPPPPPPP/PPPPPPPPPPPP/R2RQ2QR2R/NNBB1KK1BBNN/NNBB1KK1BBNN/R2RQ2QR2R w - - 0 1",
                crate::rules::grand::SPEC,
            ),
        ];
        let mut state = 0x0123_4567_89ab_cdef_u64;
        let mut random = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for (fen, spec) in rules {
            for _ in 0..20 {
                let mut board = BigBoard::from_fen(fen, spec).unwrap();
                for _ in 0..120 {
                    let list = moves(&board);
                    if list.is_empty() {
                        break;
                    }
                    // Every move's SAN is its own (no two the same), and some read back.
                    let sans: Vec<String> = list.iter().map(|&m| to_san(&board, m, &list)).collect();
                    let distinct: std::collections::HashSet<&String> = sans.iter().collect();
                    assert_eq!(distinct.len(), sans.len(), "{sans:?} in {}", board.fen());
                    for _ in 0..3 {
                        let k = random(list.len());
                        assert_eq!(from_san(&board, &sans[k], &list), Some(list[k]), "{} in {}", sans[k], board.fen());
                    }
                    board = board.play(list[random(list.len())]);
                }
            }
        }
    }

    #[test]
    fn unknown_and_ambiguous_san_is_refused() {
        let board =
            BigBoard::from_fen("R8k/10/10/10/10/10/10/10/10/R8K w - - 0 1", crate::rules::brainking10::SPEC).unwrap();
        let list = moves(&board);
        assert_eq!(from_san(&board, "Ra5", &list), None, "two rooks reach a5");
        assert_eq!(from_san(&board, "Qa5", &list), None, "no queen");
        assert_eq!(from_san(&board, "R1a5", &list), BigMove::parse(&board, "a1a5"));
        assert_eq!(from_san(&board, "--", &[BigMove::NULL]), Some(BigMove::NULL));
    }
}

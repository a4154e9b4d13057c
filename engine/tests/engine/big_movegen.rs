//! The big board's move generator against an independent one written here: a plain 2-D array,
//! bounds checked on every step, its own FEN reading and writing and its own moves. No code is
//! shared with `alea_engine::board::big` but the text both read and write. They must agree on every
//! move list and every position after a move, over random games of both big variants, and on
//! perft of hand-made positions.

use alea_engine::Role;
use alea_engine::board::big::perft::perft;
use alea_engine::board::big::{BigBoard, BigMoveList, BigSpec};

/// The reference: a position as a grid of (is White, role letter), rank 0 first.
#[derive(Clone)]
struct Plain {
    files: i32,
    ranks: i32,
    double_step: bool,
    grid: Vec<Vec<Option<(bool, char)>>>,
    white: bool,
    ep: Option<(i32, i32)>,
    halfmove: u32,
    fullmove: u32,
}

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

impl Plain {
    fn read(fen: &str, files: i32, ranks: i32, double_step: bool) -> Plain {
        let f: Vec<&str> = fen.split(' ').collect();
        let mut grid = vec![vec![None; files as usize]; ranks as usize];
        for (i, row) in f[0].split('/').enumerate() {
            let rank = ranks - 1 - i as i32;
            let mut file = 0;
            let mut number = String::new();
            for c in row.chars().chain(std::iter::once('/')) {
                if c.is_ascii_digit() {
                    number.push(c);
                    continue;
                }
                if !number.is_empty() {
                    file += number.parse::<i32>().unwrap();
                    number.clear();
                }
                if c != '/' {
                    grid[rank as usize][file as usize] = Some((c.is_ascii_uppercase(), c.to_ascii_lowercase()));
                    file += 1;
                }
            }
        }
        let ep = (f[3] != "-").then(|| {
            let file = f[3].as_bytes()[0] as i32 - b'a' as i32;
            (file, f[3][1..].parse::<i32>().unwrap() - 1)
        });
        Plain {
            files,
            ranks,
            double_step,
            grid,
            white: f[1] == "w",
            ep,
            halfmove: f[4].parse().unwrap(),
            fullmove: f[5].parse().unwrap(),
        }
    }

    fn write(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..self.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..self.files {
                match self.grid[rank as usize][file as usize] {
                    None => empty += 1,
                    Some((white, role)) => {
                        if empty > 0 {
                            row += &empty.to_string();
                        }
                        empty = 0;
                        row.push(if white { role.to_ascii_uppercase() } else { role });
                    }
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let ep = self.ep.map_or("-".to_string(), |(f, r)| name(f, r));
        format!("{} {} - {ep} {} {}", rows.join("/"), if self.white { 'w' } else { 'b' }, self.halfmove, self.fullmove)
    }

    fn at(&self, file: i32, rank: i32) -> Option<Option<(bool, char)>> {
        (0 <= file && file < self.files && 0 <= rank && rank < self.ranks)
            .then(|| self.grid[rank as usize][file as usize])
    }

    fn kings(&self, white: bool) -> usize {
        self.grid.iter().flatten().filter(|c| **c == Some((white, 'k'))).count()
    }

    /// Every pseudo-legal move as text, sorted.
    fn moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.kings(true) == 0 || self.kings(false) == 0 {
            return out;
        }
        let knight = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        let king = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
        let diagonal = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
        let straight = [(1, 0), (0, 1), (-1, 0), (0, -1)];
        for rank in 0..self.ranks {
            for file in 0..self.files {
                let Some(Some((white, role))) = self.at(file, rank) else { continue };
                if white != self.white {
                    continue;
                }
                let from = name(file, rank);
                // A square a piece may land on: inside, and empty or the enemy's.
                let lands = |f: i32, r: i32| match self.at(f, r) {
                    None => None,
                    Some(None) => Some(false),
                    Some(Some((w, _))) => (w != white).then_some(true),
                };
                let mut add = |f: i32, r: i32, promotion: &str| out.push(format!("{from}{}{promotion}", name(f, r)));
                match role {
                    'n' | 'k' => {
                        for (df, dr) in if role == 'n' { knight } else { king } {
                            if lands(file + df, rank + dr).is_some() {
                                add(file + df, rank + dr, "");
                            }
                        }
                    }
                    'b' | 'r' | 'q' => {
                        let mut rays = Vec::new();
                        if role != 'r' {
                            rays.extend(diagonal);
                        }
                        if role != 'b' {
                            rays.extend(straight);
                        }
                        for (df, dr) in rays {
                            let (mut f, mut r) = (file + df, rank + dr);
                            while let Some(capture) = lands(f, r) {
                                add(f, r, "");
                                if capture {
                                    break;
                                }
                                f += df;
                                r += dr;
                            }
                        }
                    }
                    _ => {
                        let dir = if white { 1 } else { -1 };
                        let last = if white { self.ranks - 1 } else { 0 };
                        let mut targets = Vec::new();
                        if self.at(file, rank + dir) == Some(None) {
                            targets.push((file, rank + dir));
                            let start = if white { 1 } else { self.ranks - 2 };
                            if self.double_step && rank == start && self.at(file, rank + 2 * dir) == Some(None) {
                                targets.push((file, rank + 2 * dir));
                            }
                        }
                        for df in [-1, 1] {
                            let (f, r) = (file + df, rank + dir);
                            if lands(f, r) == Some(true) || self.ep == Some((f, r)) {
                                targets.push((f, r));
                            }
                        }
                        for (f, r) in targets {
                            if r == last {
                                for p in ["n", "b", "r", "q"] {
                                    add(f, r, p);
                                }
                            } else {
                                add(f, r, "");
                            }
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    fn play(&self, text: &str) -> Plain {
        let b = text.as_bytes();
        let square = |s: &str| (s.as_bytes()[0] as i32 - b'a' as i32, s[1..].parse::<i32>().unwrap() - 1);
        // The target square's name ends where the digits after its letter end.
        let second = 1 + text[1..].find(|c: char| c.is_ascii_lowercase()).unwrap();
        let promotion =
            b.last().filter(|c| "nbrq".contains(**c as char) && text.len() > second + 2).map(|&c| c as char);
        let to_text = if promotion.is_some() { &text[second..text.len() - 1] } else { &text[second..] };
        let (ff, fr) = square(&text[..second]);
        let (tf, tr) = square(to_text);
        let mut next = self.clone();
        let (white, role) = self.grid[fr as usize][ff as usize].unwrap();
        let mut captured = self.grid[tr as usize][tf as usize].is_some();
        if role == 'p' && ff != tf && !captured {
            // En passant: the pawn taken stands beside the mover.
            next.grid[fr as usize][tf as usize] = None;
            captured = true;
        }
        next.grid[fr as usize][ff as usize] = None;
        next.grid[tr as usize][tf as usize] = Some((white, promotion.unwrap_or(role)));
        next.ep = (role == 'p' && (tr - fr).abs() == 2).then(|| (ff, (fr + tr) / 2));
        next.halfmove = if role == 'p' || captured { 0 } else { self.halfmove + 1 };
        if !self.white {
            next.fullmove += 1;
        }
        next.white = !self.white;
        next
    }
}

fn fast_moves(board: &BigBoard) -> Vec<String> {
    let mut list = BigMoveList::new();
    board.moves(&mut list);
    let mut names: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    names.sort();
    names
}

fn plain_perft(p: &Plain, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    p.moves().iter().map(|m| plain_perft(&p.play(m), depth - 1)).sum()
}

const BRAINKING10: &str = "rnbqkkkbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1";
const GRAND: &str = "r2rq2qr2r/nnbb1kk1bbnn/nnbb1kk1bbnn/r2rq2qr2r/pppppppppppp/pppppppppppp/PPPPPPPPPPPP/PPPPPPPPPPPP/R2RQ2QR2R/NNBB1KK1BBNN/NNBB1KK1BBNN/R2RQ2QR2R w - - 0 1";

/// Perft 1-4 of the start positions.
const START_10: [u64; 4] = [24, 576, 15_380, 410_359];
const START_12: [u64; 4] = [98, 9_606, 927_618, 89_599_258];

fn plain_of(fen: &str, spec: BigSpec) -> Plain {
    Plain::read(fen, i32::from(spec.files), i32::from(spec.ranks), spec.double_step)
}

/// Positions of random games from `start` (a game ends when a side loses its last king or after
/// `plies`), every move list and every position after each move compared.
fn compare_random_games(start: &str, spec: BigSpec, positions: usize, plies: usize) -> Coverage {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut random = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut seen = 0;
    let mut coverage = Coverage::default();
    while seen < positions {
        let mut fast = BigBoard::from_fen(start, spec).unwrap();
        let mut plain = plain_of(start, spec);
        for _ in 0..plies {
            let moves = fast_moves(&fast);
            assert_eq!(moves, plain.moves(), "{}", fast.fen());
            assert_eq!(fast.hash(), fast.hash_from_scratch(), "{}", fast.fen());
            assert!(fast.kept_counts_are_exact(), "{}", fast.fen());
            seen += 1;
            if moves.is_empty() {
                break;
            }
            // An en-passant capture, when there is one, half the time: random play rarely finds
            // them, and they are what the comparison must reach.
            let ep = fast.ep_square().map(|sq| sq.to_string());
            let takes_ep: Vec<&String> = moves
                .iter()
                .filter(|m| ep.as_ref().is_some_and(|e| m.ends_with(e.as_str()) && !m.starts_with(&e[..1])))
                .filter(|m| {
                    fast.piece_at(alea_engine::board::big::BigMove::parse(&fast, m).unwrap().from).unwrap().role
                        == Role::Pawn
                })
                .collect();
            let pick = if !takes_ep.is_empty() && random(2) == 0 {
                takes_ep[random(takes_ep.len())]
            } else {
                &moves[random(moves.len())]
            };
            let m = alea_engine::board::big::BigMove::parse(&fast, pick).expect("a listed move parses");
            let kings = fast.kings(!fast.turn());
            let mover = fast.piece_at(m.from).unwrap();
            let en_passant = mover.role == Role::Pawn && m.from.file() != m.to.file() && fast.piece_at(m.to).is_none();
            coverage.en_passant += usize::from(en_passant);
            coverage.promotions += usize::from(m.promotion.is_some());
            fast = fast.play(m);
            coverage.kings_taken += usize::from(fast.kings(fast.turn()) < kings);
            plain = plain.play(pick);
            assert_eq!(fast.fen(), plain.write(), "after {pick}");
        }
        coverage.games += 1;
    }
    coverage
}

/// What the random games went through, so the comparison is known to reach every rule.
#[derive(Default, Debug)]
struct Coverage {
    games: usize,
    en_passant: usize,
    promotions: usize,
    kings_taken: usize,
}

#[test]
fn brainking10_moves_agree_with_the_reference_over_random_games() {
    let c = compare_random_games(BRAINKING10, alea_engine::rules::brainking10::SPEC, 10_000, 300);
    assert!(c.en_passant > 0 && c.promotions > 0 && c.kings_taken > 0, "{c:?}");
}

#[test]
fn grand_moves_agree_with_the_reference_over_random_games() {
    let c = compare_random_games(GRAND, alea_engine::rules::grand::SPEC, 10_000, 300);
    assert!(c.en_passant == 0 && c.promotions > 0 && c.kings_taken > 0, "{c:?}");
}

/// Perft of hand-made positions, by both generators, and the counts pinned.
#[test]
fn perft_of_hand_made_positions() {
    let cases: [(&str, BigSpec, u32, u64); 4] = [
        // En passant on 10x10: White's b-pawn double-steps past Black's c4 pawn.
        ("k9/10/10/10/10/10/2p7/10/1P8/K9 w - - 0 1", alea_engine::rules::brainking10::SPEC, 4, 581),
        // Promotions on rank 10 with captures and three kings a side.
        ("1r1k1k1k2/P1P7/10/10/10/10/10/10/10/K1K1K5 w - - 0 1", alea_engine::rules::brainking10::SPEC, 3, 21_840),
        // Four kings a side on 12x12, one of them en prise, and a promotion square on rank 12.
        ("k1k1k1k5/2P9/12/12/12/5q6/12/12/12/12/12/K1K1K1K5 w - - 0 1", alea_engine::rules::grand::SPEC, 3, 20_675),
        // Black promotes on rank 1 of 12x12.
        ("k11/12/12/12/12/12/12/12/12/12/p1p9/2K1K1K1K3 b - - 0 1", alea_engine::rules::grand::SPEC, 3, 1_981),
    ];
    for (fen, spec, depth, count) in cases {
        let fast = perft(&BigBoard::from_fen(fen, spec).unwrap(), depth);
        assert_eq!(fast, plain_perft(&plain_of(fen, spec), depth), "{fen}");
        assert_eq!(fast, count, "{fen}");
    }
}

/// Perft of the two start positions (the dice ignored), by both generators to depth 3; depth 4
/// by the fast one alone in `start_perft_to_depth_4` (ignored: the reference takes minutes).
#[test]
fn start_perft_to_depth_3() {
    for (fen, spec, counts) in [
        (BRAINKING10, alea_engine::rules::brainking10::SPEC, START_10),
        (GRAND, alea_engine::rules::grand::SPEC, START_12),
    ] {
        let board = BigBoard::from_fen(fen, spec).unwrap();
        for depth in 1..=3 {
            let fast = perft(&board, depth);
            assert_eq!(fast, counts[depth as usize - 1], "{fen} depth {depth}");
            assert_eq!(fast, plain_perft(&plain_of(fen, spec), depth), "{fen} depth {depth}");
        }
    }
}

#[test]
#[ignore]
fn start_perft_to_depth_4() {
    for (fen, spec, counts) in [
        (BRAINKING10, alea_engine::rules::brainking10::SPEC, START_10),
        (GRAND, alea_engine::rules::grand::SPEC, START_12),
    ] {
        let board = BigBoard::from_fen(fen, spec).unwrap();
        let started = std::time::Instant::now();
        let fast = perft(&board, 4);
        println!("{fen}: perft 4 = {fast} in {:?}", started.elapsed());
        assert_eq!(fast, counts[3], "{fen}");
        assert_eq!(fast, plain_perft(&plain_of(fen, spec), 4), "{fen}");
    }
}

/// A position and its mirror image (ranks turned over, colours swapped) list their moves in the
/// same order, move for mirrored move: a search keeps the first of equal moves, so the order is
/// part of treating the colours alike.
#[test]
fn both_colours_meet_their_moves_in_the_same_order() {
    for (start, spec) in
        [(BRAINKING10, alea_engine::rules::brainking10::SPEC), (GRAND, alea_engine::rules::grand::SPEC)]
    {
        let ranks = u32::from(spec.ranks);
        let flip = |m: &str| -> String {
            // Each square's rank r becomes ranks + 1 - r.
            let mut out = String::new();
            let mut digits = String::new();
            for c in m.chars().chain(std::iter::once(' ')) {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    out += &(ranks + 1 - digits.parse::<u32>().unwrap()).to_string();
                    digits.clear();
                }
                if c != ' ' {
                    out.push(c);
                }
            }
            out
        };
        let mirror = |b: &BigBoard| {
            let fen = b.fen();
            let f: Vec<&str> = fen.split(' ').collect();
            let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
            let rows: Vec<String> = f[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
            let side = if f[1] == "w" { "b" } else { "w" };
            let ep = if f[3] == "-" { "-".to_string() } else { flip(f[3]) };
            BigBoard::from_fen(&format!("{} {side} - {ep} {} {}", rows.join("/"), f[4], f[5]), spec).unwrap()
        };
        let mut board = BigBoard::from_fen(start, spec).unwrap();
        for ply in 0..200 {
            let mut ours = BigMoveList::new();
            board.moves(&mut ours);
            let mut theirs = BigMoveList::new();
            mirror(&board).moves(&mut theirs);
            let ours: Vec<String> = ours.iter().map(|m| flip(&m.to_string())).collect();
            let theirs: Vec<String> = theirs.iter().map(|m| m.to_string()).collect();
            assert_eq!(ours, theirs, "{}", board.fen());
            let mut list = BigMoveList::new();
            board.moves(&mut list);
            if list.is_empty() {
                break;
            }
            board = board.play(list[(ply * 7919) % list.len()]);
        }
    }
}

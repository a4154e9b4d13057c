//! `diechess`: Die Chess (source 002, docs/variants.md). Each side has one piece, a die that
//! moves as the face it shows and carries a number of moves in hand. A turn is a pass, a move, a
//! roll, or a roll and then a move; capturing the enemy die wins when it shows the king, and
//! otherwise sends it home as a pawn. Two pieces make few enough states to solve the game exactly
//! ([`crate::search::solve`]).
//!
//! A position here is a turn's start. A turn after a roll carries the face rolled, so playing it
//! sets the face first: the roll is a chance event whose outcomes change the position.

use crate::board::attacks;
use crate::board::bitboard::Bitboard;
use crate::board::piece::{Color, Role};
use crate::board::square::Square;
use crate::rules::GameError;
use crate::rules::solvable::{After, Options, Solvable};
use std::fmt;

/// A game undecided after this many turns (both players', passes and rolls included) is drawn.
pub const TURN_LIMIT: u32 = 200;

/// The start, in FEN with the moves in hand as a 7th field (White's, then Black's).
pub const START_FEN: &str = "7p/8/8/8/8/8/8/P7 w - - 0 1 22";

/// Most moves one die has on a turn: a queen's 27 (a pawn's 3 with five promotions each is 15).
pub const MAX_DIE_MOVES: usize = 27;

/// One side's die: where it stands, the face it shows, and the moves it may still make before
/// it must be rolled again.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Die {
    pub square: Square,
    pub face: Role,
    pub in_hand: u8,
}

impl Die {
    /// A die just rolled to `face` on `square`.
    pub fn rolled(square: Square, face: Role) -> Die {
        Die { square, face, in_hand: moves_after_roll(face) }
    }

    /// Could this die stand so? Moves in hand never exceed what a roll of its face gives: a
    /// promoted pawn keeps what it had left after the move that promoted it (at most one).
    pub fn is_possible(&self) -> bool {
        self.in_hand <= moves_after_roll(self.face)
    }
}

/// Moves in hand after a roll shows `face`: two for a pawn, knight or bishop, one for a rook,
/// queen or king.
#[inline]
pub const fn moves_after_roll(face: Role) -> u8 {
    match face {
        Role::Pawn | Role::Knight | Role::Bishop => 2,
        Role::Rook | Role::Queen | Role::King => 1,
    }
}

/// A die's start square: White's a1, Black's h8.
#[inline]
pub const fn home(color: Color) -> Square {
    match color {
        Color::White => Square::A1,
        Color::Black => Square::H8,
    }
}

/// Where a captured die of `color` goes: home, or the next dark square along that rank when the
/// capturer stands there (c1 for White, f8 for Black).
#[inline]
pub fn return_square(color: Color, capturer: Square) -> Square {
    let start = home(color);
    if capturer != start {
        start
    } else if color == Color::White {
        Square::C1
    } else {
        Square::new(61)
    }
}

/// A move of a die: from, to, and the face a pawn chooses on reaching its last rank.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct DieMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

impl fmt::Display for DieMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

/// What a player does on a turn: roll or not, and move or not. `roll: None, mv: None` passes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct DieTurn {
    /// The face rolled this turn, if the player rolled.
    pub roll: Option<Role>,
    pub mv: Option<DieMove>,
}

impl DieTurn {
    pub const PASS: DieTurn = DieTurn { roll: None, mv: None };

    /// Reads a turn's text (see the `Display` below), whatever the position.
    pub fn parse(text: &str) -> Result<DieTurn, GameError> {
        let (roll, rest) = match text.strip_prefix("roll") {
            Some(tail) => {
                let (face, rest) = match tail.split_once(',') {
                    Some((face, rest)) => (face, Some(rest)),
                    None => (tail, None),
                };
                let role =
                    face.parse::<u8>().ok().and_then(Role::from_face).ok_or_else(|| {
                        GameError::Turn(format!("{text}: the face rolled must be 1 to 6, not {face:?}"))
                    })?;
                (Some(role), rest)
            }
            None => (None, Some(text)),
        };
        let mv = match rest {
            None => None,
            Some("0000") if roll.is_none() => None,
            Some(m) => Some(
                parse_move(m)
                    .ok_or_else(|| GameError::Turn(format!("{text}: {m:?} is not a move like a1a2 or a7a8q")))?,
            ),
        };
        Ok(DieTurn { roll, mv })
    }

    /// What the player answers after the roll: the move, or `0000` for not moving (the turn's
    /// text less its roll).
    pub fn answer(&self) -> String {
        self.mv.map_or_else(|| "0000".to_string(), |m| m.to_string())
    }

    /// The turn of this answer after rolling `face` (`answer` as [`DieTurn::answer`] writes it).
    pub fn after_roll(face: Role, answer: &str) -> Result<DieTurn, GameError> {
        let turn = DieTurn::parse(answer)?;
        if turn.roll.is_some() {
            return Err(GameError::Turn(format!("{answer}: the roll is given already")));
        }
        Ok(DieTurn { roll: Some(face), mv: turn.mv })
    }
}

/// Protocol text: `0000` (pass), `a1b3`, `a7a8q`, `roll2` (rolled a knight, did not move),
/// `roll2,a1b3`.
impl fmt::Display for DieTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.roll, self.mv) {
            (None, None) => write!(f, "0000"),
            (None, Some(m)) => write!(f, "{m}"),
            (Some(face), None) => write!(f, "roll{}", face.face()),
            (Some(face), Some(m)) => write!(f, "roll{},{m}", face.face()),
        }
    }
}

/// Why the game ended, if it has.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DieEnd {
    /// The die of this colour was taken while showing the king.
    KingCaptured(Color),
    /// [`TURN_LIMIT`] turns were played.
    TurnLimit,
}

/// A Die Chess position at a turn's start.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct DiePosition {
    /// The dice by colour index (White's first).
    pub dice: [Die; 2],
    pub turn: Color,
    /// Turns played so far, both players' (the FEN's halfmove field).
    pub turns_played: u32,
    /// The colour whose die was taken showing the king: the game is over.
    pub king_taken: Option<Color>,
    /// The FEN's move number, kept for writing the FEN back.
    pub fullmove: u32,
}

impl Default for DiePosition {
    fn default() -> DiePosition {
        DiePosition::start()
    }
}

impl DiePosition {
    pub fn start() -> DiePosition {
        DiePosition {
            dice: [Die::rolled(home(Color::White), Role::Pawn), Die::rolled(home(Color::Black), Role::Pawn)],
            turn: Color::White,
            turns_played: 0,
            king_taken: None,
            fullmove: 1,
        }
    }

    #[inline]
    pub fn die(&self, color: Color) -> Die {
        self.dice[color.index()]
    }

    /// Could some face of `color`'s die take the other die where both stand (were it rolled
    /// with a move in hand)?
    pub fn in_reach_of(&self, color: Color) -> bool {
        let (die, enemy) = (self.die(color), self.die(!color));
        Role::ALL.into_iter().any(|face| targets(color, face, die.square, enemy.square).contains(enemy.square))
    }

    /// The end of the game, if it is over.
    pub fn end(&self) -> Option<DieEnd> {
        if let Some(color) = self.king_taken {
            Some(DieEnd::KingCaptured(color))
        } else if self.turns_played >= TURN_LIMIT {
            Some(DieEnd::TurnLimit)
        } else {
            None
        }
    }

    /// The moves the side to move's die has with this face and these moves in hand (none when
    /// nothing is left in hand).
    pub fn moves(&self, die: Die, out: &mut Vec<DieMove>) {
        out.clear();
        if die.in_hand == 0 {
            return;
        }
        let us = self.turn;
        let enemy = self.die(!us).square;
        for to in targets(us, die.face, die.square, enemy) {
            if die.face == Role::Pawn && to.rank() == last_rank(us) {
                for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                    out.push(DieMove { from: die.square, to, promotion: Some(role) });
                }
            } else {
                out.push(DieMove { from: die.square, to, promotion: None });
            }
        }
    }

    /// The turns playable without rolling: the pass and the die's moves.
    pub fn pre_roll_turns(&self) -> Vec<DieTurn> {
        let mut moves = Vec::new();
        self.moves(self.die(self.turn), &mut moves);
        std::iter::once(DieTurn::PASS).chain(moves.into_iter().map(|m| DieTurn { roll: None, mv: Some(m) })).collect()
    }

    /// The turns after rolling `face`: not moving, or a move as the new face.
    pub fn turns_after_roll(&self, face: Role) -> Vec<DieTurn> {
        let die = Die::rolled(self.die(self.turn).square, face);
        let mut moves = Vec::new();
        self.moves(die, &mut moves);
        std::iter::once(DieTurn { roll: Some(face), mv: None })
            .chain(moves.into_iter().map(|m| DieTurn { roll: Some(face), mv: Some(m) }))
            .collect()
    }

    /// The position as a roll of `face` leaves it before the move: the mover's die turned to the
    /// face with its moves in hand, the same side to move (what a board shows between the roll
    /// and the move).
    pub fn showing_roll(&self, face: Role) -> DiePosition {
        let mut shown = *self;
        shown.dice[self.turn.index()] = Die::rolled(self.die(self.turn).square, face);
        shown
    }

    /// Is `turn` one the rules allow here (given its roll, if any)?
    pub fn allows(&self, turn: DieTurn) -> bool {
        if self.end().is_some() {
            return false;
        }
        let list = match turn.roll {
            None => self.pre_roll_turns(),
            Some(face) => self.turns_after_roll(face),
        };
        list.contains(&turn)
    }

    /// The position after `turn`, which the rules allow here.
    pub fn play(&self, turn: DieTurn) -> DiePosition {
        let us = self.turn;
        let mut next = *self;
        let mut die = self.die(us);
        if let Some(face) = turn.roll {
            die = Die::rolled(die.square, face);
        }
        if let Some(m) = turn.mv {
            debug_assert_eq!(m.from, die.square);
            die.square = m.to;
            die.in_hand -= 1;
            if let Some(role) = m.promotion {
                die.face = role;
            }
            let enemy = self.die(!us);
            if m.to == enemy.square {
                if enemy.face == Role::King {
                    next.king_taken = Some(!us);
                } else {
                    next.dice[(!us).index()] = Die::rolled(return_square(!us, m.to), Role::Pawn);
                }
            }
        }
        next.dice[us.index()] = die;
        next.turn = !us;
        next.turns_played += 1;
        if us == Color::Black {
            next.fullmove += 1;
        }
        next
    }

    /// Reads a turn in protocol text (see [`DieTurn`]'s `Display`) and checks that the rules
    /// allow it here.
    pub fn parse_turn(&self, text: &str) -> Result<DieTurn, GameError> {
        let turn = DieTurn::parse(text)?;
        let DieTurn { roll, mv } = turn;
        if let Some(end) = self.end() {
            return Err(GameError::NotNow(format!("{text}: the game is over ({end:?})")));
        }
        if self.allows(turn) {
            return Ok(turn);
        }
        let die = self.die(self.turn);
        let shown = roll.map_or(die, |face| Die::rolled(die.square, face));
        Err(GameError::Turn(match mv {
            Some(m) if m.from != die.square => {
                format!("{text}: the {} die stands on {}, not {}", self.turn.name(), die.square, m.from)
            }
            Some(_) if shown.in_hand == 0 => format!("{text}: the die has no moves in hand; roll first"),
            Some(_) => format!("{text}: a die showing a {} on {} cannot make that move", shown.face.name(), die.square),
            None => format!("{text}: not a turn here"),
        }))
    }

    /// The position's FEN: the two dice as the pieces they show, castling and en passant `-`,
    /// the turns played, the move number, and the moves in hand (White's then Black's).
    pub fn fen(&self) -> String {
        let mut placement = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_coords(file, rank);
                let piece = Color::ALL
                    .into_iter()
                    .find(|&c| self.king_taken != Some(c) && self.die(c).square == sq)
                    .map(|c| crate::board::piece::Piece { color: c, role: self.die(c).face }.char());
                match piece {
                    Some(ch) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        placement.push(ch);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if rank > 0 {
                placement.push('/');
            }
        }
        let side = if self.turn == Color::White { 'w' } else { 'b' };
        format!(
            "{placement} {side} - - {} {} {}{}",
            self.turns_played, self.fullmove, self.dice[0].in_hand, self.dice[1].in_hand
        )
    }

    /// Reads a Die Chess FEN (see [`DiePosition::fen`]); the 7th field may be left out only
    /// when each die has what a roll of its face gives.
    pub fn from_fen(text: &str) -> Result<DiePosition, GameError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(6..=7).contains(&fields.len()) && fields.len() != 4 {
            return Err(GameError::Position(format!(
                "a Die Chess FEN has 7 fields (board, side, castling, en passant, turns played, move number, moves in hand), not {}",
                fields.len()
            )));
        }
        let mut found: Vec<(Color, Role, Square)> = Vec::new();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(GameError::Position(format!("the board {:?} has {} ranks, not 8", fields[0], ranks.len())));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for ch in row.chars() {
                if let Some(n) = ch.to_digit(10) {
                    if n == 0 || n > 8 {
                        return Err(GameError::Position(format!("rank {} of the board has the count {ch}", rank + 1)));
                    }
                    file += n as u8;
                } else {
                    let piece = crate::board::piece::Piece::from_char(ch)
                        .ok_or_else(|| GameError::Position(format!("{ch:?} is not a piece letter")))?;
                    if file >= 8 {
                        return Err(GameError::Position(format!(
                            "rank {} of the board has more than 8 squares",
                            rank + 1
                        )));
                    }
                    found.push((piece.color, piece.role, Square::from_coords(file, rank)));
                    file += 1;
                }
                if file > 8 {
                    return Err(GameError::Position(format!("rank {} of the board has more than 8 squares", rank + 1)));
                }
            }
            if file != 8 {
                return Err(GameError::Position(format!("rank {} of the board has {file} squares, not 8", rank + 1)));
            }
        }
        let count = |c: Color| found.iter().filter(|f| f.0 == c).count();
        if found.len() != 2 || count(Color::White) != 1 || count(Color::Black) != 1 {
            return Err(GameError::Position(format!(
                "a Die Chess board holds exactly two dice, one White and one Black; this one has {} White and {} Black",
                count(Color::White),
                count(Color::Black)
            )));
        }
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(GameError::Position(format!("the side to move is w or b, not {other:?}"))),
        };
        if fields[2] != "-" || fields[3] != "-" {
            return Err(GameError::Position(
                "Die Chess has no castling and no en passant: those fields must be -".to_string(),
            ));
        }
        let turns_played: u32 = match fields.get(4) {
            None => 0,
            Some(t) => t.parse().map_err(|_| GameError::Position(format!("the turns played {t:?} is not a number")))?,
        };
        if turns_played > TURN_LIMIT {
            return Err(GameError::Position(format!(
                "{turns_played} turns played: the game is drawn after {TURN_LIMIT}"
            )));
        }
        let fullmove: u32 = match fields.get(5) {
            None => 1,
            Some(t) => t
                .parse()
                .ok()
                .filter(|&n: &u32| n > 0)
                .ok_or_else(|| GameError::Position(format!("the move number {t:?} is not a positive number")))?,
        };
        let die_of = |c: Color| {
            let &(_, role, square) = found.iter().find(|f| f.0 == c).expect("one die of each colour");
            Die::rolled(square, role)
        };
        let mut dice = [die_of(Color::White), die_of(Color::Black)];
        if let Some(hand) = fields.get(6) {
            let digits: Vec<u32> = hand.chars().map(|c| c.to_digit(10).unwrap_or(99)).collect();
            if digits.len() != 2 || digits.iter().any(|&d| d > 9) {
                return Err(GameError::Position(format!(
                    "the moves in hand {hand:?} are two digits, White's then Black's (22 at the start)"
                )));
            }
            for (die, &n) in dice.iter_mut().zip(&digits) {
                die.in_hand = n as u8;
                if !die.is_possible() {
                    return Err(GameError::Position(format!(
                        "a die showing a {} has at most {} moves in hand, not {n}",
                        die.face.name(),
                        moves_after_roll(die.face)
                    )));
                }
            }
        }
        Ok(DiePosition { dice, turn, turns_played, king_taken: None, fullmove })
    }
}

/// The last rank of `color`'s pawn face (where it promotes).
#[inline]
pub const fn last_rank(color: Color) -> u8 {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// The squares a die of `color` showing `face` on `from` may move to, the enemy die on `enemy`
/// (the only other piece): a pawn steps forward onto an empty square or diagonally forward onto
/// the enemy; the others move as in chess, blocked only by the enemy die, which they may take.
#[inline]
pub fn targets(color: Color, face: Role, from: Square, enemy: Square) -> Bitboard {
    let enemy_bb = Bitboard::from_square(enemy);
    if face == Role::Pawn {
        if from.rank() == last_rank(color) {
            return Bitboard::EMPTY;
        }
        let ahead = from.offset(if color == Color::White { 8 } else { -8 });
        let push = if ahead == enemy { Bitboard::EMPTY } else { Bitboard::from_square(ahead) };
        return push | (attacks::pawn(color, from) & enemy_bb);
    }
    attacks::piece(face, from, enemy_bb | Bitboard::from_square(from))
}

/// Reads `a1a2` or `a7a8q`.
fn parse_move(text: &str) -> Option<DieMove> {
    let from = Square::parse(text.get(0..2)?)?;
    let to = Square::parse(text.get(2..4)?)?;
    let promotion = match text.len() {
        4 => None,
        5 => Some(Role::from_char(text.chars().nth(4)?).filter(|&r| r != Role::Pawn)?),
        _ => return None,
    };
    Some(DieMove { from, to, promotion })
}

/// The Die Chess rules, for the search (which assumes no board, no number of pieces): a
/// position is a turn's start, the pre-roll turns are the pass and the moves in hand, and each
/// turn after a roll carries its face.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct DieChess;

impl super::Rules for DieChess {
    type Position = DiePosition;
    type Turn = DieTurn;

    fn name(&self) -> &'static str {
        "diechess"
    }

    /// The documents give none; what a face can do, for orderings.
    fn piece_values(&self) -> crate::board::values::PieceValues {
        crate::board::values::PieceValues([100, 300, 300, 500, 900, 0])
    }

    fn dice(&self) -> usize {
        1
    }

    fn pre_roll_turns(&self, pos: &DiePosition, out: &mut super::TurnList<DieTurn>) {
        out.clear();
        if pos.end().is_none() {
            out.extend(pos.pre_roll_turns());
        }
    }

    fn outcomes(&self, pos: &DiePosition, out: &mut super::dice::OutcomeList) {
        out.clear();
        if pos.end().is_none() {
            out.extend(super::dice::one_die());
        }
    }

    fn allowed_turns(&self, pos: &DiePosition, roll: &super::Roll, out: &mut super::TurnList<DieTurn>) {
        out.clear();
        out.extend(pos.turns_after_roll(Role::of_face(roll.faces()[0])));
    }

    fn any_turns(&self, pos: &DiePosition, out: &mut super::TurnList<DieTurn>) {
        out.clear();
        out.extend(pos.pre_roll_turns());
        for face in Role::ALL {
            out.extend(pos.turns_after_roll(face));
        }
    }

    fn play(&self, pos: &DiePosition, turn: DieTurn) -> DiePosition {
        pos.play(turn)
    }

    fn end(&self, pos: &DiePosition) -> Option<super::GameEnd> {
        use super::{EndReason, GameEnd, GameResult};
        pos.end().map(|end| match end {
            DieEnd::KingCaptured(loser) => GameEnd { result: GameResult::Win(!loser), reason: EndReason::KingCapture },
            DieEnd::TurnLimit => GameEnd { result: GameResult::Draw, reason: EndReason::TurnLimit },
        })
    }

    /// The state and the turns played (the value depends on the turns left near the limit).
    fn hash(&self, pos: &DiePosition) -> u64 {
        let mut x = (state_index(pos) as u64) << 1 | pos.turn.index() as u64;
        x ^= u64::from(pos.turns_played) << 40;
        // SplitMix64's finaliser: the table's slots need the bits spread.
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    /// No repetition rule: the turn limit ends every game.
    fn reversible_plies(&self, _pos: &DiePosition) -> u32 {
        0
    }

    fn turn(&self, pos: &DiePosition) -> Color {
        pos.turn
    }

    fn in_check(&self, _pos: &DiePosition) -> bool {
        false
    }

    fn turn_to_uci(&self, turn: DieTurn) -> String {
        turn.to_string()
    }

    fn parse_turn(&self, pos: &DiePosition, text: &str) -> Option<DieTurn> {
        pos.parse_turn(text).ok()
    }

    fn roll_meaning(&self, roll: &super::Roll) -> String {
        format!("the die shows a {}", Role::of_face(roll.faces()[0]).name())
    }
}

/// Die Chess as front ends see it: two dice on an 8x8 board, played from its exact solution
/// (or searched with [`DieEval`] when told not to use it); a roll turns the die, so the answer
/// after a roll is the move alone and the turn joins the roll to it.
impl crate::rules::one_turn::OneTurnRules for DieChess {
    fn start_position(&self) -> DiePosition {
        DiePosition::start()
    }

    fn parse_fen(&self, text: &str) -> Result<DiePosition, GameError> {
        DiePosition::from_fen(text)
    }

    fn fen(&self, pos: &DiePosition) -> String {
        pos.fen()
    }

    fn size(&self) -> (u8, u8) {
        (8, 8)
    }

    fn piece_at(&self, pos: &DiePosition, file: u8, rank: u8) -> Option<crate::Piece> {
        let square = Square::from_coords(file, rank);
        Color::ALL
            .into_iter()
            .find(|&c| pos.king_taken != Some(c) && pos.die(c).square == square)
            .map(|color| crate::Piece { color, role: pos.die(color).face })
    }

    fn fullmove(&self, pos: &DiePosition) -> u32 {
        pos.fullmove
    }

    /// Written as the protocol writes it; not moving is a pass.
    fn san(&self, _pos: &DiePosition, turn: DieTurn, _candidates: &[DieTurn]) -> String {
        if turn.mv.is_none() { "--".into() } else { turn.to_string() }
    }

    fn parse_san(&self, _pos: &DiePosition, text: &str, _candidates: &[DieTurn]) -> Option<DieTurn> {
        DieTurn::parse(text).ok()
    }

    /// The die moves as the face it shows (the rolled one after a roll) and takes the enemy die
    /// as the face that one shows.
    fn turn_roles(&self, pos: &DiePosition, turn: DieTurn) -> crate::rules::one_turn::TurnRoles {
        let Some(m) = turn.mv else { return crate::rules::one_turn::TurnRoles::default() };
        let enemy = pos.die(!pos.turn);
        crate::rules::one_turn::TurnRoles {
            mover: Some(turn.roll.unwrap_or(pos.die(pos.turn).face)),
            captured: (m.to == enemy.square && pos.king_taken.is_none()).then_some(enemy.face),
            promotion: None,
        }
    }

    fn perft_divide(
        &self,
        _pos: &DiePosition,
        _depth: u32,
        _stop: &std::sync::atomic::AtomicBool,
        _counted: &mut dyn FnMut(&str, u64),
    ) -> Result<bool, GameError> {
        Err(GameError::NotInVariant("diechess has no chess moves to count".into()))
    }

    fn state_lines(&self, pos: &DiePosition) -> Vec<String> {
        let hand = |c: Color| pos.die(c).in_hand;
        vec![
            format!("Moves in hand: White {}, Black {}", hand(Color::White), hand(Color::Black)),
            format!("Turns played: {} of {}", pos.turns_played, TURN_LIMIT),
        ]
    }

    fn why_not(&self, pos: &DiePosition, text: &str) -> Option<GameError> {
        pos.parse_turn(text).err()
    }

    fn read_turn(&self, _pos: &DiePosition, text: &str) -> Option<DieTurn> {
        DieTurn::parse(text).ok()
    }

    fn answer(&self, turn: DieTurn) -> String {
        turn.answer()
    }

    fn turn_of_answer(&self, roll: &super::Roll, answer: &str) -> Result<String, GameError> {
        if answer.starts_with("roll") {
            return Ok(answer.to_string());
        }
        DieTurn::after_roll(Role::of_face(roll.faces()[0]), answer).map(|t| t.to_string())
    }

    fn after_roll(&self, pos: &DiePosition, roll: &super::Roll) -> DiePosition {
        pos.showing_roll(Role::of_face(roll.faces()[0]))
    }

    fn free_turns(&self) -> Result<(), GameError> {
        Err(GameError::NotInVariant("diechess has no free turn: give the face rolled".into()))
    }
}

/// Die states: 64 squares x 6 faces x 0..=2 moves in hand.
pub const DIE_STATES: usize = 64 * 6 * 3;
/// Table entries: the mover's die state x the other's (some impossible: one square, or more in
/// hand than a roll gives; those stay at 1/2 and are never read).
pub const STATES: usize = DIE_STATES * DIE_STATES;

/// A die's state code in the mover's frame.
#[inline]
pub const fn die_code(square: usize, face: usize, in_hand: usize) -> usize {
    (square * 6 + face) * 3 + in_hand
}

/// The square as the other player sees it (turned 180 degrees).
#[inline]
pub const fn turned(square: usize) -> usize {
    63 - square
}

/// The state code of a die seen by `viewer`.
#[inline]
pub fn code_seen_by(viewer: Color, die: Die) -> usize {
    let sq = if viewer == Color::White { die.square.index() } else { turned(die.square.index()) };
    die_code(sq, die.face.index(), usize::from(die.in_hand))
}

/// The index of a position's state (its side to move is the mover), in the tables of its
/// values ([`crate::search::solve`]) and in its hash.
#[inline]
pub fn state_index(pos: &DiePosition) -> usize {
    let us = pos.turn;
    code_seen_by(us, pos.die(us)) * DIE_STATES + code_seen_by(us, pos.die(!us))
}

/// A die state code's parts: square, face, moves in hand.
#[inline]
const fn decode(code: usize) -> (usize, usize, usize) {
    (code / 18, (code / 3) % 6, code % 3)
}

/// The state number after the mover's turn: the other player moves next, seeing both dice
/// turned.
#[inline]
fn next_index(mover: (usize, usize, usize), other: (usize, usize, usize)) -> usize {
    die_code(turned(other.0), other.1, other.2) * DIE_STATES + die_code(turned(mover.0), mover.1, mover.2)
}

/// The mover's moves from its die state `mover` (none with no move in hand), against the other
/// die's state `other`.
#[inline]
fn die_moves(mover: (usize, usize, usize), other: (usize, usize, usize), out: &mut impl Options) {
    let (sq, face, in_hand) = mover;
    if in_hand == 0 {
        return;
    }
    let role = Role::ALL[face];
    let enemy = Square::new(other.0 as u8);
    for to in targets(Color::White, role, Square::new(sq as u8), enemy) {
        let t = to.index();
        if t == other.0 {
            if other.1 == Role::King.index() {
                out.choose(After::Won);
                continue;
            }
            // The captured die goes home as a pawn: h8 as the mover sees it, f8 when the
            // capturer stands there.
            let home = if t == 63 { 61 } else { 63 };
            arrive(role, (t, in_hand - 1), (home, Role::Pawn.index(), 2), out);
        } else {
            arrive(role, (t, in_hand - 1), other, out);
        }
    }
}

/// The mover's die arriving on a square with moves left: a pawn reaching the last rank becomes
/// the face of its choice among the five others.
#[inline]
fn arrive(role: Role, (t, left): (usize, usize), other: (usize, usize, usize), out: &mut impl Options) {
    if role == Role::Pawn && t >= 56 {
        for r in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            out.choose(After::Next(next_index((t, r.index(), left), other)));
        }
    } else {
        out.choose(After::Next(next_index((t, role.index(), left), other)));
    }
}

/// Die Chess numbered for its exact solution: a state is the mover's die and the other die, both
/// as the mover sees the board (Black's turns turned 180 degrees, which maps h8 to a1 and makes
/// its pawn step up), so one table serves both colours.
impl Solvable for DieChess {
    const STATES: usize = STATES;
    const SOLUTION_VERSION: u32 = 1;
    const SOLUTION_MAGIC: [u8; 8] = *b"ALEADIE1";

    /// Two squares, and in hand no more than a roll of the face shown gives.
    fn is_possible(&self, index: usize) -> bool {
        let (mover, other) = (index / DIE_STATES, index % DIE_STATES);
        let ok = |code: usize| code % 3 <= usize::from(moves_after_roll(Role::ALL[(code / 3) % 6]));
        mover / 18 != other / 18 && ok(mover) && ok(other)
    }

    fn state_index(&self, pos: &DiePosition) -> usize {
        state_index(pos)
    }

    fn position_of(&self, index: usize, mover: Color) -> DiePosition {
        let die = |code: usize| {
            let (square, face, in_hand) = decode(code);
            let square = if mover == Color::White { square } else { turned(square) };
            Die { square: Square::new(square as u8), face: Role::ALL[face], in_hand: in_hand as u8 }
        };
        let (ours, theirs) = (die(index / DIE_STATES), die(index % DIE_STATES));
        let dice = if mover == Color::White { [ours, theirs] } else { [theirs, ours] };
        DiePosition { dice, turn: mover, turns_played: 0, king_taken: None, fullmove: 1 }
    }

    /// Each die on a square, a face and moves in hand drawn alike (the samples `alea solve`'s
    /// measurements and openings have always used), then the side to move.
    fn random_position(&self, next: &mut dyn FnMut(u64) -> u64) -> Option<DiePosition> {
        let mut die = || {
            let square = Square::new(next(64) as u8);
            let face = Role::ALL[next(6) as usize];
            let in_hand = next(u64::from(moves_after_roll(face)) + 1) as u8;
            Die { square, face, in_hand }
        };
        let (white, black) = (die(), die());
        if white.square == black.square {
            return None;
        }
        let turn = if next(2) == 0 { Color::White } else { Color::Black };
        Some(DiePosition { dice: [white, black], turn, turns_played: 0, king_taken: None, fullmove: 1 })
    }

    /// Passing, each move in hand, and rolling: each face then allows not moving or any of the
    /// moves the roll gives.
    fn options(&self, index: usize, out: &mut impl Options) {
        let (mover, other) = (decode(index / DIE_STATES), decode(index % DIE_STATES));
        out.choose(After::Next(next_index(mover, other)));
        die_moves(mover, other, out);
        out.roll(6, |out, face| {
            let rolled = (mover.0, face, usize::from(moves_after_roll(Role::ALL[face])));
            out.choose(After::Next(next_index(rolled, other)));
            die_moves(rolled, other, out);
        });
    }

    /// Among equals, moving before passing.
    fn preferred_pre_roll(&self, pos: &DiePosition) -> Vec<DieTurn> {
        let mut turns = pos.pre_roll_turns();
        turns.rotate_left(1);
        turns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> DiePosition {
        DiePosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn texts(turns: &[DieTurn]) -> Vec<String> {
        let mut v: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn start_reads_and_writes() {
        let start = pos(START_FEN);
        assert_eq!(start, DiePosition::start());
        assert_eq!(start.fen(), START_FEN);
        assert_eq!(texts(&start.pre_roll_turns()), ["0000", "a1a2"]);
    }

    #[test]
    fn a_roll_sets_the_moves_in_hand_and_the_face_moves() {
        let start = DiePosition::start();
        // A knight on a1 has b3 and c2; a king a2, b1, b2; a rook the whole a-file and rank.
        assert_eq!(texts(&start.turns_after_roll(Role::Knight)), ["roll2", "roll2,a1b3", "roll2,a1c2"]);
        assert_eq!(start.turns_after_roll(Role::Rook).len(), 1 + 14);
        let after = start.play(start.parse_turn("roll2,a1b3").unwrap());
        assert_eq!(
            after.die(Color::White),
            Die { square: Square::parse("b3").unwrap(), face: Role::Knight, in_hand: 1 }
        );
        assert_eq!(after.fen(), "7p/8/8/8/8/1N6/8/8 b - - 1 1 12");
        let rook = start.play(start.parse_turn("roll4,a1a5").unwrap());
        assert_eq!(rook.die(Color::White).in_hand, 0);
        // Nothing in hand: pass or roll only.
        let white_again = rook.play(DieTurn::PASS);
        assert_eq!(texts(&white_again.pre_roll_turns()), ["0000"]);
        assert!(white_again.parse_turn("a5a6").unwrap_err().to_string().contains("no moves in hand"));
    }

    #[test]
    fn capture_sends_the_die_home_or_wins_on_the_king() {
        // White's queen takes Black's bishop on h8... which goes home to h8 unless White stands
        // there: then f8.
        let p = pos("7b/8/8/8/8/8/8/Q7 w - - 10 6 11");
        let after = p.play(p.parse_turn("a1h8").unwrap());
        assert_eq!(after.die(Color::Black), Die { square: Square::parse("f8").unwrap(), face: Role::Pawn, in_hand: 2 });
        assert_eq!(after.die(Color::White).in_hand, 0);
        assert_eq!(after.end(), None);
        let elsewhere = pos("8/8/8/8/3b4/8/8/Q7 w - - 10 6 11");
        let after = elsewhere.play(elsewhere.parse_turn("a1d4").unwrap());
        assert_eq!(after.die(Color::Black), Die { square: Square::H8, face: Role::Pawn, in_hand: 2 });
        let took = elsewhere.play(elsewhere.parse_turn("roll3,a1d4").unwrap());
        assert_eq!(
            took.die(Color::White),
            Die { square: Square::parse("d4").unwrap(), face: Role::Bishop, in_hand: 1 }
        );
        let king = pos("8/8/8/8/8/8/1k6/Q7 w - - 3 2 11");
        let won = king.play(king.parse_turn("a1b2").unwrap());
        assert_eq!(won.end(), Some(DieEnd::KingCaptured(Color::Black)));
        assert_eq!(won.fen(), "8/8/8/8/8/8/1Q6/8 b - - 4 2 01");
        // White's die taken on a1 by a piece standing there goes to c1.
        let home = pos("8/8/8/8/8/8/1b6/P7 b - - 3 2 22");
        let after = home.play(home.parse_turn("b2a1").unwrap());
        assert_eq!(after.die(Color::White), Die { square: Square::C1, face: Role::Pawn, in_hand: 2 });
    }

    #[test]
    fn pawns_step_capture_diagonally_and_promote_by_choice() {
        // No double step; a diagonal step only onto the enemy; blocked by the enemy ahead.
        assert_eq!(texts(&pos("8/8/8/8/8/8/8/P6p w - - 0 1 22").pre_roll_turns()), ["0000", "a1a2"]);
        assert_eq!(texts(&pos("8/8/8/8/8/8/p7/P7 w - - 0 1 22").pre_roll_turns()), ["0000"]);
        assert_eq!(texts(&pos("8/8/8/8/8/8/1p6/P7 w - - 0 1 22").pre_roll_turns()), ["0000", "a1a2", "a1b2"]);
        // Black's pawn goes down.
        assert_eq!(texts(&pos("7p/8/8/8/8/8/8/P7 b - - 1 1 12").pre_roll_turns()), ["0000", "h8h7"]);
        // Promotion: five faces, moves in hand kept (less the move).
        let p = pos("8/P7/8/8/8/8/8/7p w - - 0 1 22");
        assert_eq!(texts(&p.pre_roll_turns()), ["0000", "a7a8b", "a7a8k", "a7a8n", "a7a8q", "a7a8r"]);
        let q = p.play(p.parse_turn("a7a8q").unwrap());
        assert_eq!(q.die(Color::White), Die { square: Square::A8, face: Role::Queen, in_hand: 1 });
        // A pawn rolled on its last rank has no move.
        assert_eq!(texts(&pos("P7/8/8/8/8/8/8/7p w - - 0 1 22").turns_after_roll(Role::Pawn)), ["roll1"]);
    }

    #[test]
    fn the_turn_limit_draws() {
        let p = pos("7p/8/8/8/8/8/8/P7 b - - 199 100 22");
        assert_eq!(p.end(), None);
        assert_eq!(p.play(DieTurn::PASS).end(), Some(DieEnd::TurnLimit));
    }

    #[test]
    fn bad_input_is_refused_with_its_reason() {
        for (fen, why) in [
            ("7p/8/8/8/8/8/8/PP6 w - - 0 1 22", "one White and one Black"),
            ("8/8/8/8/8/8/8/P7 w - - 0 1 22", "one White and one Black"),
            ("7p/8/8/8/8/8/8/R7 w - - 0 1 22", "at most 1"),
            ("7p/8/8/8/8/8/8/P7 w - - 0 1 32", "at most 2"),
            ("7p/8/8/8/8/8/8/P7 w - - 0 1 2", "two digits"),
            ("7p/8/8/8/8/8/8/P7 w KQ - 0 1 22", "no castling"),
            ("7p/8/8/8/8/8/8/P7 w - - 201 1 22", "drawn after 200"),
            ("7p/8/8/8/8/8/8/P8 w - - 0 1 22", "more than 8"),
        ] {
            let err = DiePosition::from_fen(fen).unwrap_err();
            assert!(err.to_string().contains(why), "{fen}: {err}");
        }
        let start = DiePosition::start();
        for (turn, why) in [
            ("a1a3", "cannot make that move"),
            ("b1b2", "stands on a1"),
            ("roll7", "1 to 6"),
            ("roll2,a1a2", "cannot make that move"),
            ("roll2,0000", "not a move"),
            ("a1", "not a move"),
        ] {
            let err = start.parse_turn(turn).unwrap_err();
            assert!(err.to_string().contains(why), "{turn}: {err}");
        }
    }
}

//! The self-play data file: compact and binary, one game after another, each game whole or not at
//! all, so that a run killed at any moment is resumed by cutting the file after its last whole
//! game.
//!
//! ```text
//! file     = "ALEADAT1" header-length:u16 header:UTF-8 game*
//! game     = ("GAME" | "GAMF") length:u32 body checksum:u32   (length counts body and checksum)
//! body     = index:u64 result:u8 plies:u16 white-freedom:u16 black-freedom:u16
//!            recapture:u16 defend:u16 check:u16 reason-length:u8 reason:UTF-8
//!            count:u32 position*count
//! position = 32 bytes (see `pack`)                                   in a GAME block
//!          | fen-length:u8 fen:UTF-8 score:i16 ply:u16               in a GAMF block
//! ```
//!
//! Integers are little-endian; `result` is White's score in halves (0, 1, 2); the checksum is
//! FNV-1a (32 bits) of the body. A packed position (8x8) is its occupied squares (64 bits), a
//! 4-bit piece code per occupied square in square order (up to 32 pieces), the side to move, the
//! search's score for the side to move (centipawns; `i16::MIN` when there is none) and the ply it
//! was reached at. The big boards' positions, which do not pack so, are written as FEN text.

use alea_engine::board::checksum::fnv1a;
use alea_engine::{Board, Color, Role, Square};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"ALEADAT1";
const GAME: &[u8; 4] = b"GAME";
/// A game whose positions are FEN text (the big boards).
const GAME_FEN: &[u8; 4] = b"GAMF";
/// Bytes of a packed position.
pub const POSITION_BYTES: usize = 32;
/// The score of a position that has none.
pub const NO_SCORE: i16 = i16::MIN;

/// One game of a data file.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    pub summary: GameSummary,
    pub positions: Vec<Sample>,
}

/// One game's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    pub index: u64,
    /// From White's side: 1, 0.5 or 0.
    pub white_score: f64,
    pub plies: u32,
    /// Freedom moves played (without rolling) by White and by Black.
    pub pre_roll: [u32; 2],
    /// Of those, how many met each condition (a move may meet several): recapture, defend, check.
    pub kinds: [u32; 3],
    pub reason: String,
}

/// A quiet position of a game with the game's result and the search's score.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub position: SamplePosition,
    pub white_score: f64,
    /// The search's score for the side to move, in centipawns, when the game's player searched.
    pub score: Option<i16>,
    /// The ply of the game it was reached at.
    pub ply: u16,
    /// The index of its game.
    pub game: u64,
}

/// Where a sample stands: an 8x8 board (what the tables read), or a big board's FEN (whose
/// evaluation terms the variant's game computes).
#[derive(Clone, Debug, PartialEq)]
pub enum SamplePosition {
    Board(Board),
    Fen(String),
}

impl Sample {
    /// The 8x8 board, if the sample is on one.
    pub fn board(&self) -> Option<&Board> {
        match &self.position {
            SamplePosition::Board(board) => Some(board),
            SamplePosition::Fen(_) => None,
        }
    }

    /// The position as FEN.
    pub fn fen(&self) -> String {
        match &self.position {
            SamplePosition::Board(board) => board.fen(),
            SamplePosition::Fen(fen) => fen.clone(),
        }
    }
}

/// A data file read back.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    pub header: String,
    pub samples: Vec<Sample>,
    pub games: Vec<GameSummary>,
}

impl DataSet {
    /// The variant its header names (`freedom960` for Chess960 starts), if it names one.
    pub fn variant(&self) -> Option<&str> {
        self.header.split_whitespace().find_map(|w| w.strip_prefix("variant="))
    }

    /// The 8x8 boards of all samples, or an error naming what the data holds instead.
    pub fn boards(&self) -> Result<Vec<&Board>, String> {
        boards_of(&self.samples)
    }
}

/// The 8x8 boards of `samples`, or an error naming the first that is on a big board.
pub fn boards_of(samples: &[Sample]) -> Result<Vec<&Board>, String> {
    samples
        .iter()
        .map(|s| {
            s.board().ok_or_else(|| format!("the data holds positions of a big board ({}), not 8x8 boards", s.fen()))
        })
        .collect()
}

/// Where each whole game lies in a file.
#[derive(Clone, Debug)]
pub struct Layout {
    pub header: String,
    /// (game index, byte range of its whole block).
    pub games: Vec<(u64, std::ops::Range<usize>)>,
    /// The byte length of the header and the whole games: a resumed run cuts the file there.
    pub complete_len: usize,
}

/// The file's first bytes for a run of these settings.
pub fn encode_header(header: &str) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out
}

/// A position in 32 bytes; `None` for a board of more than 32 pieces.
pub fn pack(board: &Board, score: Option<i16>, ply: u16) -> Option<[u8; POSITION_BYTES]> {
    let mut out = [0u8; POSITION_BYTES];
    let occupied = board.occupied();
    if occupied.count() > 32 {
        return None;
    }
    out[..8].copy_from_slice(&occupied.0.to_le_bytes());
    for (n, sq) in occupied.into_iter().enumerate() {
        let piece = board.piece_at(sq).expect("an occupied square");
        let code = (piece.color.index() as u8) << 3 | piece.role.index() as u8;
        out[8 + n / 2] |= code << (4 * (n % 2));
    }
    out[24] = u8::from(board.turn() == Color::Black);
    out[25..27].copy_from_slice(&score.unwrap_or(NO_SCORE).to_le_bytes());
    out[27..29].copy_from_slice(&ply.to_le_bytes());
    Some(out)
}

/// A packed position back: the board (no castling rights, no en passant: what the evaluation
/// reads), the score and the ply.
pub fn unpack(bytes: &[u8]) -> Result<(Board, Option<i16>, u16), String> {
    let occupied = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    if occupied.count_ones() > 32 || bytes[24] > 1 || bytes[29..32].iter().any(|&b| b != 0) {
        return Err("a damaged position".into());
    }
    let mut board = Board::empty();
    let mut bits = occupied;
    let mut n = 0;
    while bits != 0 {
        let sq = Square::new(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        let code = (bytes[8 + n / 2] >> (4 * (n % 2))) & 0xf;
        let role = Role::ALL.get(usize::from(code & 7)).copied().ok_or("a damaged piece code")?;
        let color = if code & 8 == 0 { Color::White } else { Color::Black };
        board.put(sq, alea_engine::Piece { color, role });
        n += 1;
    }
    let turn = if bytes[24] == 1 { Color::Black } else { Color::White };
    let fen = board.fen();
    let placement = fen.split(' ').next().unwrap_or_default();
    let board = Board::from_fen(&format!("{placement} {} - - 0 1", turn.fen_char()))
        .map_err(|e| format!("a damaged position ({e})"))?;
    let score = i16::from_le_bytes([bytes[25], bytes[26]]);
    Ok((board, (score != NO_SCORE).then_some(score), u16::from_le_bytes([bytes[27], bytes[28]])))
}

/// One game's block, ready to append.
pub fn encode_game(game: &GameData) -> Vec<u8> {
    let s = &game.summary;
    let mut body = Vec::with_capacity(40 + game.positions.len() * POSITION_BYTES);
    body.extend(s.index.to_le_bytes());
    body.push((s.white_score * 2.0).round() as u8);
    let small = |v: u32| (v.min(u32::from(u16::MAX)) as u16).to_le_bytes();
    body.extend(small(s.plies));
    for v in s.pre_roll.iter().chain(&s.kinds) {
        body.extend(small(*v));
    }
    let reason: String = s.reason.chars().take(80).collect();
    body.push(reason.len() as u8);
    body.extend(reason.as_bytes());
    let text = game.positions.iter().any(|p| matches!(p.position, SamplePosition::Fen(_)));
    let mut positions = Vec::new();
    let mut count = 0u32;
    for p in &game.positions {
        let score = p.score.unwrap_or(NO_SCORE).to_le_bytes();
        match (&p.position, text) {
            // A big board's FEN is some 100 bytes: a length byte holds it.
            (position, true) => {
                let fen = match position {
                    SamplePosition::Fen(fen) => fen.clone(),
                    SamplePosition::Board(board) => board.fen(),
                };
                let Ok(len) = u8::try_from(fen.len()) else { continue };
                positions.push(len);
                positions.extend(fen.as_bytes());
                positions.extend(score);
                positions.extend(p.ply.to_le_bytes());
            }
            (SamplePosition::Board(board), false) => match pack(board, p.score, p.ply) {
                Some(packed) => positions.extend(packed),
                None => continue,
            },
            (SamplePosition::Fen(_), false) => unreachable!("a game with a FEN position is written as text"),
        }
        count += 1;
    }
    body.extend(count.to_le_bytes());
    body.extend(positions);
    let mut out = if text { GAME_FEN.to_vec() } else { GAME.to_vec() };
    out.extend(((body.len() + 4) as u32).to_le_bytes());
    out.extend(&body);
    // The checksum last, so that a body cut short never checks.
    out.extend(fnv1a(&body).to_le_bytes());
    out
}

/// Reads a block's body: the game's summary and positions (packed, or as FEN text).
fn decode_body(body: &[u8], text: bool) -> Result<GameData, String> {
    let mut at = 0;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let slice = body.get(at..at + n).ok_or("a game block too short")?;
        at += n;
        Ok(slice)
    };
    let index = u64::from_le_bytes(take(8)?.try_into().expect("8"));
    let result = take(1)?[0];
    if result > 2 {
        return Err(format!("game {index}: an unknown result"));
    }
    let mut small = [0u32; 6];
    for v in &mut small {
        *v = u32::from(u16::from_le_bytes(take(2)?.try_into().expect("2")));
    }
    let reason_len = usize::from(take(1)?[0]);
    let reason =
        String::from_utf8(take(reason_len)?.to_vec()).map_err(|_| format!("game {index}: a damaged reason"))?;
    let count = u32::from_le_bytes(take(4)?.try_into().expect("4")) as usize;
    let white_score = f64::from(result) / 2.0;
    let mut positions = Vec::with_capacity(count);
    for _ in 0..count {
        if text {
            let len = usize::from(take(1)?[0]);
            let fen = String::from_utf8(take(len)?.to_vec()).map_err(|_| format!("game {index}: a damaged FEN"))?;
            let score = i16::from_le_bytes(take(2)?.try_into().expect("2"));
            let ply = u16::from_le_bytes(take(2)?.try_into().expect("2"));
            let score = (score != NO_SCORE).then_some(score);
            positions.push(Sample { position: SamplePosition::Fen(fen), white_score, score, ply, game: index });
        } else {
            let (board, score, ply) = unpack(take(POSITION_BYTES)?).map_err(|e| format!("game {index}: {e}"))?;
            let position = SamplePosition::Board(board);
            positions.push(Sample { position, white_score, score, ply, game: index });
        }
    }
    if at != body.len() {
        return Err(format!("game {index}: bytes left over in its block"));
    }
    let summary = GameSummary {
        index,
        white_score,
        plies: small[0],
        pre_roll: [small[1], small[2]],
        kinds: [small[3], small[4], small[5]],
        reason,
    };
    Ok(GameData { summary, positions })
}

/// The header and where each whole game lies. The blocks after the last whole one (a game cut
/// off mid-write) are left out; a damaged block before a whole one is an error.
pub fn layout(bytes: &[u8]) -> Result<Layout, String> {
    if bytes.len() < 10 || &bytes[..8] != MAGIC {
        return Err(if bytes.starts_with(b"# alea datagen ") {
            "a data file of the older text format (read by fit and report; regenerate it to resume or merge)".into()
        } else {
            "not an alea datagen file (no header)".into()
        });
    }
    let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = bytes.get(10..10 + header_len).ok_or("a header cut off")?;
    let header = String::from_utf8(header.to_vec()).map_err(|_| "a damaged header")?;
    let mut at = 10 + header_len;
    let mut games = Vec::new();
    let mut complete_len = at;
    while at < bytes.len() {
        let block_start = at;
        let whole = (|| {
            if bytes.get(at..at + 4) != Some(&GAME[..]) && bytes.get(at..at + 4) != Some(&GAME_FEN[..]) {
                return Err(format!("byte {at}: no game block here"));
            }
            let len = bytes.get(at + 4..at + 8).ok_or("a block cut off")?;
            let len = u32::from_le_bytes(len.try_into().expect("4")) as usize;
            let end = at + 8 + len;
            let block = bytes.get(at + 8..end).ok_or("a block cut off")?;
            if len < 4 {
                return Err(format!("byte {at}: a damaged block length"));
            }
            let (body, checksum) = block.split_at(len - 4);
            if fnv1a(body).to_le_bytes() != checksum {
                return Err(format!("byte {at}: a game block that fails its checksum"));
            }
            let index = u64::from_le_bytes(body.get(..8).ok_or("a block too short")?.try_into().expect("8"));
            Ok((index, end))
        })();
        match whole {
            Ok((index, end)) => {
                games.push((index, block_start..end));
                at = end;
                complete_len = end;
            }
            Err(e) => {
                // A game cut off mid-write ends the file; a bad block with bytes after it is damage.
                let declared = bytes.get(at + 4..at + 8).map(|l| u32::from_le_bytes(l.try_into().expect("4")) as usize);
                if declared.is_some_and(|len| at + 8 + len < bytes.len()) {
                    return Err(e);
                }
                break;
            }
        }
    }
    Ok(Layout { header, games, complete_len })
}

/// Reads a data file's bytes: the header, every whole game's summary and positions, and the byte
/// length up to the end of the last whole game.
pub fn decode(bytes: &[u8]) -> Result<(DataSet, usize), String> {
    let layout = layout(bytes)?;
    let mut data = DataSet { header: layout.header.clone(), ..DataSet::default() };
    for (_, range) in &layout.games {
        let block = &bytes[range.clone()];
        let game = decode_body(&block[8..block.len() - 4], &block[..4] == GAME_FEN)?;
        data.samples.extend(game.positions);
        data.games.push(game.summary);
    }
    Ok((data, layout.complete_len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64) -> GameData {
        let boards =
            ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "8/8/3k4/8/8/4K3/8/7q b - - 0 60"];
        GameData {
            summary: GameSummary {
                index,
                white_score: 0.5,
                plies: 130,
                pre_roll: [3, 1],
                kinds: [1, 0, 2],
                reason: "fifty moves".into(),
            },
            positions: boards
                .iter()
                .enumerate()
                .map(|(i, f)| Sample {
                    position: SamplePosition::Board(Board::from_fen(f).unwrap()),
                    white_score: 0.5,
                    score: if i == 0 { Some(-37) } else { None },
                    ply: 4 + i as u16,
                    game: index,
                })
                .collect(),
        }
    }

    #[test]
    fn games_round_trip_and_a_cut_game_is_left_out() {
        let mut file = encode_header("alea datagen variant=freedom depth=2 seed=1");
        file.extend(encode_game(&game(0)));
        let whole = file.len();
        file.extend(encode_game(&game(7)));
        let (data, len) = decode(&file).unwrap();
        assert_eq!(len, file.len());
        assert_eq!(data.header, "alea datagen variant=freedom depth=2 seed=1");
        assert_eq!(data.games.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 7]);
        assert_eq!(data.games[1], game(7).summary);
        // The board comes back as the evaluation sees it (no castling rights, clocks reset).
        assert_eq!(data.samples[0].fen(), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 0 1");
        assert_eq!((data.samples[0].score, data.samples[1].score, data.samples[1].ply), (Some(-37), None, 5));
        assert_eq!(data.samples.len(), 4);
        for cut in [whole + 3, whole + 20, file.len() - 1] {
            let (data, len) = decode(&file[..cut]).unwrap();
            assert_eq!((data.games.len(), len), (1, whole), "cut at {cut}");
        }
        // A flipped byte in a game followed by a whole one is damage, not a cut.
        let mut damaged = file.clone();
        damaged[whole - 10] ^= 1;
        assert!(decode(&damaged).unwrap_err().to_string().contains("checksum"));
        assert!(decode(b"# alea datagen variant=freedom\n").unwrap_err().to_string().contains("older text format"));
        assert!(decode(b"hello").unwrap_err().to_string().contains("not an alea datagen file"));
    }

    #[test]
    fn big_board_games_are_written_as_fen_and_read_back() {
        let fen = "k9/10/10/10/10/10/10/10/10/K1K6r w - - 0 1";
        let mut big = game(3);
        big.positions = vec![Sample {
            position: SamplePosition::Fen(fen.into()),
            white_score: 0.5,
            score: Some(12),
            ply: 40,
            game: 3,
        }];
        let mut file = encode_header("alea datagen variant=brainking10 depth=1 seed=1");
        let block = encode_game(&big);
        assert_eq!(&block[..4], b"GAMF");
        file.extend(&block);
        let big_end = file.len();
        file.extend(encode_game(&game(0)));
        let (data, len) = decode(&file).unwrap();
        assert_eq!(len, file.len());
        assert_eq!(data.samples.len(), 3);
        assert_eq!(data.samples[0], big.positions[0]);
        assert!(data.boards().unwrap_err().to_string().contains("big board"));
        assert_eq!(data.samples[0].board(), None);
        // Cut inside the text game: it is left out; damaged with a game after it: refused.
        let (cut, cut_len) = decode(&file[..big_end - 3]).unwrap();
        assert_eq!((cut.samples.len(), cut_len), (0, big_end - block.len()));
        let mut damaged = file.clone();
        damaged[big_end - 12] ^= 0x40;
        assert!(decode(&damaged).is_err());
    }
}

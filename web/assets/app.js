'use strict';
// Alea's page: the board, the dice and the engine's explanations. The server owns the rules and
// the dice; the page shows what it says and sends the person's choices.

const $ = (id) => document.getElementById(id);
const FILES = 'abcdefghijkl';
const ROLE_NAMES = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };
const FACE_ROLE = ['', 'p', 'n', 'b', 'r', 'q', 'k'];
const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

let game = null;        // the server's state of the game
let selected = null;    // the square picked to move from
let viewPly = null;     // an earlier position being looked at, or null for the game
let focusSq = 'e2';     // the square the keyboard is on
let thinking = false;   // waiting for the engine's turn
let analysing = false;  // a whole-game analysis is under way (its progress shows in the status)
let events = null;      // the engine's live output
let diceShown = null;   // the faces on show and whose they are
let adviceFor = null;   // the decision the advice on show is about
let dragging = null;
let suppressClick = false;

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const res = await fetch(path, options);
  let data;
  try { data = await res.json(); } catch { data = { error: `HTTP ${res.status}` }; }
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

/** A request about the game on show: its answer, or null where another game was started while
 *  it ran (a late answer must not bring back the game left). */
async function gameRequest(endpoint, body) {
  const id = game.id;
  try {
    const answer = await api('POST', `/api/games/${id}/${endpoint}`, body);
    return game.id === id ? answer : null;
  } catch (err) {
    if (game.id === id) throw err;
    return null;
  }
}

function showError(message) { $('error').textContent = message || ''; }
function setStatus(message) { $('status').textContent = message; }

// --- Positions -------------------------------------------------------------------------------

// Boards of 8x8 to 12x12: a FEN's empty runs may have two digits (`10`), squares `a1`..`l12`.
function parseFen(fen) {
  const pieces = {};
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const run of row.match(/\d+|\D/g) || []) {
      if (/\d/.test(run)) { file += Number(run); continue; }
      pieces[FILES[file] + (rows.length - i)] = run;
      file += 1;
    }
  });
  return pieces;
}

/** Files and ranks of the board a FEN describes. */
function boardSize(fen) {
  const rows = fen.split(' ')[0].split('/');
  const files = (rows[0].match(/\d+|\D/g) || []).reduce((n, run) => n + (/\d/.test(run) ? Number(run) : 1), 0);
  return { files, ranks: rows.length };
}

/** A move's squares: `e2e4`, `a10a9`, `b12a12q` (the letter a promotion). */
function moveSquares(uci) {
  const m = /^([a-l]\d+)([a-l]\d+)([a-z]?)$/.exec(uci);
  return m ? { from: m[1], to: m[2] } : { from: uci.slice(0, 2), to: uci.slice(2, 4) };
}

const fileOf = (sq) => sq[0];
const rankOf = (sq) => Number(sq.slice(1));

function shownFen() {
  if (viewPly === null || viewPly >= game.moves.length) return game.fen;
  return game.fens[viewPly];
}

function humansDecision() {
  return game && viewPly === null && !thinking && game.phase !== 'over' && game.turn === game.human;
}

/** The moves the person may pick now: those playable without rolling before the roll, the allowed ones after it. */
function candidates() {
  if (!humansDecision()) return [];
  const list = game.phase === 'before_roll' ? game.pre_roll : game.allowed;
  return list.filter((u) => u !== '0000').map((u) => ({ uci: u, ...moveSquares(u) }));
}

function isOwnPiece(piece) {
  if (!piece) return false;
  const white = piece === piece.toUpperCase();
  return white === (game.human === 'white');
}

// --- Board -----------------------------------------------------------------------------------

function squareOrder() {
  const squares = [];
  const flipped = game && game.human === 'black';
  const { files, ranks } = boardSize(game ? game.fen : '8/8/8/8/8/8/8/8');
  for (let r = 0; r < ranks; r++) {
    for (let f = 0; f < files; f++) {
      const rank = flipped ? r + 1 : ranks - r;
      const file = flipped ? files - 1 - f : f;
      squares.push(FILES[file] + rank);
    }
  }
  return squares;
}

function pieceSvg(piece) {
  const colour = piece === piece.toUpperCase() ? 'white' : 'black';
  const role = piece.toLowerCase();
  return `<svg class="piece ${colour}" viewBox="0 0 45 45" aria-hidden="true"><use href="#piece-${role}"/></svg>`;
}

function renderBoard() {
  const board = $('board');
  const hadFocus = board.contains(document.activeElement);
  const pieces = parseFen(shownFen());
  const cands = candidates();
  const sources = new Set(cands.map((c) => c.from));
  const targets = new Set(cands.filter((c) => c.from === selected).map((c) => c.to));
  const shownMoves = viewPly === null ? game.moves : game.moves.slice(0, viewPly);
  const last = shownMoves.length ? shownMoves[shownMoves.length - 1] : null;
  // The last micro-move made: of the turn in progress, else of the last turn.
  const lastMicro = viewPly === null && game.partial.length ? game.partial[game.partial.length - 1]
    : (last && !last.pass ? last.uci.split(',').pop() : null);
  const lastMove = lastMicro ? moveSquares(lastMicro) : null;
  const lastSquares = lastMove ? [lastMove.from, lastMove.to] : [];
  const turnWhite = shownFen().split(' ')[1] === 'w';
  const checked = viewPly === null && game.in_check
    ? Object.keys(pieces).find((s) => pieces[s] === (turnWhite ? 'K' : 'k')) : null;
  const { files, ranks } = boardSize(shownFen());
  document.documentElement.style.setProperty('--files', files);
  board.style.gridTemplateColumns = `repeat(${files}, var(--sq))`;
  board.style.gridTemplateRows = `repeat(${ranks}, var(--sq))`;
  board.innerHTML = '';
  const order = squareOrder();
  if (!order.includes(focusSq)) focusSq = order[order.length - 1];
  for (const sq of order) {
    const el = document.createElement('button');
    const fileIndex = FILES.indexOf(fileOf(sq));
    const dark = (fileIndex + rankOf(sq)) % 2 === 1;
    el.className = `sq ${dark ? 'dark' : 'light'}`;
    el.dataset.square = sq;
    el.setAttribute('role', 'gridcell');
    el.tabIndex = sq === focusSq ? 0 : -1;
    const piece = pieces[sq];
    const words = piece ? `${piece === piece.toUpperCase() ? 'white' : 'black'} ${ROLE_NAMES[piece.toLowerCase()]}` : 'empty';
    let label = `${sq} ${words}`;
    if (sources.has(sq)) { el.classList.add(game.phase === 'before_roll' ? 'pre-roll' : 'movable'); label += ', can move'; }
    if (sq === selected) { el.classList.add('selected'); label += ', selected'; }
    if (targets.has(sq)) { el.classList.add('target'); label += ', move here'; }
    if (lastSquares.includes(sq)) el.classList.add('last');
    if (sq === checked) el.classList.add('check');
    el.setAttribute('aria-label', label);
    el.innerHTML = piece ? pieceSvg(piece) : '';
    const bottomRank = game.human === 'black' ? ranks : 1;
    if (rankOf(sq) === bottomRank) el.insertAdjacentHTML('beforeend', `<span class="coord">${fileOf(sq)}</span>`);
    board.appendChild(el);
  }
  if (hadFocus) board.querySelector(`[data-square="${focusSq}"]`)?.focus();
}

// --- Dice ------------------------------------------------------------------------------------

function dieSvg(face, engine, used) {
  const pips = (PIPS[face] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join('');
  const label = `die showing ${face}${used ? ', used' : ''}`;
  return `<svg class="die${engine ? ' engine' : ''}${used ? ' used' : ''}" viewBox="0 0 100 100" role="img" aria-label="${label}">`
    + `<rect x="4" y="4" width="92" height="92" rx="16"/>${pips}</svg>`;
}

function renderDice() {
  const dice = $('dice');
  if (!diceShown) {
    dice.innerHTML = '';
    $('roll-meaning').textContent = '';
    return;
  }
  // In a turn of several micro-moves, the dice already used are greyed out; a die whose face
  // counts down what is left (Gollon's count) is drawn again with the count left.
  const left = (!diceShown.engine && game && game.dice_left) ? [...game.dice_left] : null;
  const used = diceShown.faces.map((f) => {
    if (!left) return false;
    const i = left.indexOf(f);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
  dice.innerHTML = diceShown.faces.map((f, i) => dieSvg(f, diceShown.engine, used[i])).join('')
    + (left || []).map((f) => dieSvg(f, false, false)).join('');
  let meaning = `${diceShown.engine ? 'Alea rolled' : 'You rolled'} ${diceShown.faces.join(' and ')}: ${diceShown.meaning || ''}`;
  if (game && game.micro && !diceShown.engine && game.dice_left) {
    meaning += ` — dice left: ${game.dice_left_meaning}`;
  }
  // Freedom gives an unusable roll to the lowest piece that can move: say so.
  if (!diceShown.engine && game && !game.micro && game.phase === 'after_roll' && game.allowed.length) {
    const pieces = parseFen(game.fen);
    const movers = new Set(game.allowed.filter((u) => u !== '0000').map((u) => (pieces[moveSquares(u).from] || '').toLowerCase()));
    const rolled = diceShown.faces.map((f) => FACE_ROLE[f]);
    if (movers.size && !rolled.some((r) => movers.has(r))) {
      meaning += ` — none can move, so ${[...movers].map((r) => ROLE_NAMES[r]).join(', ')} moves`;
    }
  }
  $('roll-meaning').textContent = meaning;
}

/** A short tumble of random faces before the real ones. */
function animateDice(faces, engine, meaning) {
  return new Promise((resolve) => {
    const dice = $('dice');
    dice.classList.add('rolling');
    let ticks = 0;
    const timer = setInterval(() => {
      dice.innerHTML = faces.map(() => dieSvg(1 + Math.floor(Math.random() * 6), engine)).join('');
      ticks += 1;
      if (ticks >= 6) {
        clearInterval(timer);
        dice.classList.remove('rolling');
        diceShown = { faces, engine, meaning };
        renderDice();
        resolve();
      }
    }, 70);
  });
}

// --- The rest of the page ---------------------------------------------------------------------

function rollNote(m) {
  if (m.roll) return `roll ${m.roll.join('+')}`;
  if (m.pre_roll && m.pre_roll.length) return `free: ${m.pre_roll.join(', ')}`;
  return 'free';
}

function renderMoves() {
  const list = $('moves');
  list.innerHTML = '';
  game.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.value = Math.floor(i / 2) + 1;
    const who = m.by === 'you' ? 'you' : 'Alea';
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `${m.side === 'black' ? '… ' : ''}${m.pass ? 'pass' : m.san}`;
    b.title = `Show the position after this move (${who})`;
    b.addEventListener('click', () => { viewPly = i + 1; selected = null; render(); });
    li.appendChild(b);
    li.insertAdjacentHTML('beforeend', ` <span class="rollnote">${rollNote(m)} · ${who}</span>`);
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}

function renderControls() {
  const mine = humansDecision();
  const myRoll = mine && game.phase === 'before_roll' && game.may_roll;
  $('roll-button').disabled = !myRoll;
  $('roll-button').hidden = game.own_dice;
  // Own dice: the faces are typed, the person's and, where it waits for them, Alea's.
  const entry = $('dice-entry');
  const wasHidden = entry.hidden;
  entry.hidden = !(game.own_dice && (myRoll || (game.engine_awaits_dice && !thinking)));
  $('dice-entry-who').textContent = game.engine_awaits_dice ? 'Alea\'s roll' : 'Your roll';
  $('faces').placeholder = ['3', '2 5', '1 4 6', '1 2 4 6'][Math.min(Math.max(game.dice, 1), 4) - 1];
  if (wasHidden && !entry.hidden) $('faces').value = '';
  const onlyPass = mine && game.phase === 'after_roll' && game.allowed.length === 1 && game.allowed[0] === '0000';
  // Where dice may go unused, a turn under way may end before its dice do.
  const mayStop = mine && game.phase === 'after_roll' && game.partial.length > 0 && game.allowed.includes('0000');
  $('pass-button').hidden = !(onlyPass || mayStop);
  $('pass-button').textContent = mayStop ? 'End the turn' : 'Pass';
  $('undo-button').disabled = thinking || !(game.partial.length || game.moves.some((m) => m.by === 'you'));
  $('download-pgn').href = `/api/games/${game.id}/pgn`;
  $('viewing').hidden = viewPly === null;
  const free = $('pre-roll-list');
  free.innerHTML = '';
  if (mine && game.phase === 'before_roll' && game.pre_roll.length) {
    free.append(game.may_roll ? 'Moves without rolling (play one, or roll): '
      : 'No roll this turn: play one of these moves (0000 passes): ');
    for (const u of game.pre_roll) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = u;
      b.addEventListener('click', () => sendMove(u));
      free.appendChild(b);
    }
  }
  let status;
  if (game.phase === 'over') {
    const winner = game.result === '1-0' ? 'White wins' : game.result === '0-1' ? 'Black wins' : 'Draw';
    const you = game.result === '1/2-1/2' ? '' : ((game.result === '1-0') === (game.human === 'white') ? ' — you win' : ' — Alea wins');
    status = `${winner} (${game.result}) by ${game.reason}${you}.`;
  } else if (game.engine_awaits_dice && !thinking) {
    status = 'Alea rolls: enter its dice.';
  } else if (thinking || game.engine_to_move) {
    status = 'Alea is thinking…';
  } else if (game.phase === 'before_roll') {
    const rollIt = game.own_dice ? 'enter your roll' : 'roll';
    status = !game.may_roll ? 'Your turn, without a roll: any legal move.'
      : game.pre_roll.length ? `Your turn: ${rollIt}, or play a marked move without rolling.` : `Your turn: ${rollIt === 'roll' ? 'roll the dice' : rollIt}.`;
  } else if (onlyPass) {
    status = 'The roll allows no move: you pass.';
  } else if (game.micro) {
    status = game.partial.length
      ? `Your turn goes on: ${game.partial_san.join(', ')} so far; play the next micro-move (undo takes them back).`
      : 'Your turn: play a micro-move for each die you can use, one at a time.';
  } else {
    status = 'Your turn: play one of the moves the roll allows.';
  }
  if (game.in_check && game.phase !== 'over') status += ' Check!';
  setStatus(status);
}

function render() {
  if (!game) return;
  renderBoard();
  renderDice();
  renderMoves();
  renderControls();
}

function setEval(advice) {
  const white = advice.side === 'white';
  const [w, d, l] = advice.wdl;
  const whiteShare = (white ? w + d / 2 : l + d / 2) / 10;
  $('eval-fill').style.height = `${whiteShare}%`;
  $('eval-bar').setAttribute('aria-label', `White's expected share ${whiteShare.toFixed(0)}%`);
  const score = advice.mate ? (advice.mate > 0 === white ? 'White wins by force' : 'Black wins by force')
    : `${advice.white_score >= 0 ? '+' : ''}${(advice.white_score / 100).toFixed(2)} for White`;
  $('eval-text').textContent = `${score} · ${advice.side} to move: win ${(w / 10).toFixed(0)}%, draw ${(d / 10).toFixed(0)}%, loss ${(l / 10).toFixed(0)}% (depth ${advice.depth})`;
}

function scoreText(s) {
  if (s >= 3500) return 'win';
  if (s <= -3500) return 'loss';
  return `${s >= 0 ? '+' : ''}${s}`;
}

function renderAdvice(advice) {
  const box = $('advice');
  if (advice.over) { box.innerHTML = ''; return; }
  setEval(advice);
  let html = '';
  if (!advice.roll) {
    html += '<table aria-label="Outcomes of the roll"><thead><tr><th>roll</th><th>chance</th><th>best move</th><th>score</th></tr></thead><tbody>';
    for (const o of advice.outcomes) {
      const best = o.estimated ? '<em>not searched</em>' : o.san;
      const score = scoreText(o.score) + (o.estimated ? ' (estimate)' : '');
      html += `<tr><td>${o.roll.join('+')} ${o.meaning}</td><td class="num">${(o.probability * 100).toFixed(1)}%</td><td>${best}</td><td class="num">${score}</td></tr>`;
    }
    html += '</tbody></table>';
    const estimated = advice.outcomes.filter((o) => o.estimated).length;
    if (estimated) html += `<p>The search did not finish one turn in its time: ${advice.outcomes.length - estimated} of ${advice.outcomes.length} outcomes searched, the rest estimated by the captures the dice allow.</p>`;
    if (advice.expected !== null && advice.expected !== undefined) html += `<p>Expected score of rolling: ${scoreText(advice.expected)}</p>`;
    const free = advice.choices.filter((c) => c.move !== 'roll');
    if (free.length) {
      html += '<p>Moves without rolling, against rolling:</p><table><tbody>';
      for (const c of free) html += `<tr><td>${c.san}</td><td class="num">${c.exact ? '' : '≤'}${scoreText(c.score)}</td></tr>`;
      html += '</tbody></table>';
    }
    html += `<p>Best: <strong>${advice.best === 'roll' ? 'roll' : advice.best}</strong></p>`;
  } else {
    html += '<table aria-label="Moves ranked"><thead><tr><th>#</th><th>move</th><th>score</th><th>loss</th><th>W/D/L</th></tr></thead><tbody>';
    advice.choices.forEach((c, i) => {
      html += `<tr><td class="num">${i + 1}</td><td>${c.san}</td><td class="num">${c.exact ? '' : '≤'}${scoreText(c.score)}</td><td class="num">${c.exact ? c.loss : '≥' + c.loss}</td><td class="num">${c.wdl.map((x) => (x / 10).toFixed(0)).join('/')}</td></tr>`;
    });
    html += '</tbody></table>';
  }
  box.innerHTML = html;
}

// The decision open: the turn, before or after the roll, and the micro-moves made of it.
const decision = () => `${game.id}:${game.moves.length}:${game.phase}:${game.partial.length}`;
let rolloutFor = null;   // the decision the rollout on show is about

function renderRollout(r) {
  const pct = (x) => (x * 100).toFixed(1);
  const luck = r.luck_adjusted ? ', the luck of each roll taken out' : '';
  let html = `<p>${r.games} games a move, both sides one turn deep${luck}, for ${r.side} (a draw half a game):</p>`;
  html += '<table aria-label="Moves played out"><thead><tr><th>#</th><th>move</th><th>result</th><th>loss</th><th>search</th></tr></thead><tbody>';
  r.choices.forEach((c, i) => {
    const loss = i === 0 ? '0' : `${pct(c.loss)} ± ${pct(c.loss_ci95)}`;
    html += `<tr><td class="num">${i + 1}</td><td>${c.san}</td><td class="num">${pct(c.result)}% ± ${pct(c.ci95)}</td><td class="num">${loss}</td><td class="num">#${c.search_rank}</td></tr>`;
  });
  $('rollout').innerHTML = html + '</tbody></table>';
}

async function requestRollout() {
  if (!game || !humansDecision()) { $('rollout').textContent = 'A rollout is of your own decision: on your turn.'; return; }
  const key = decision();
  rolloutFor = key;
  $('rollout').textContent = 'Playing the best moves out…';
  $('rollout-button').disabled = true;
  try {
    const r = await api('POST', `/api/games/${game.id}/rollout`, { games: 500, choices: 3, seconds: 5 });
    if (rolloutFor === key && game && decision() === key) renderRollout(r);
  } catch (e) {
    if (rolloutFor === key) $('rollout').textContent = `No rollout: ${e.message}`;
  } finally {
    $('rollout-button').disabled = false;
  }
}

async function requestAdvice() {
  if (!$('show-advice').checked || !humansDecision()) return;
  const key = decision();
  adviceFor = key;
  try {
    const advice = await api('POST', `/api/games/${game.id}/advice`, { movetime: 400 });
    if (adviceFor === key && game && decision() === key) renderAdvice(advice);
  } catch (e) {
    // Advice is a help, not the game: a refusal here is only logged.
    log(`advice: ${e.message}`);
  }
}

function log(line) {
  const el = $('engine-log');
  el.textContent += `${line}\n`;
  const lines = el.textContent.split('\n');
  if (lines.length > 60) el.textContent = lines.slice(-60).join('\n');
  el.scrollTop = el.scrollHeight;
}

function listen() {
  if (events) events.close();
  events = new EventSource(`/api/games/${game.id}/events`);
  events.onmessage = (e) => {
    try {
      const info = JSON.parse(e.data);
      if (info.kind === 'analysis') {
        if (analysing) setStatus(`Analysing the game… ${info.judged} of ${info.turns} moves judged`);
        return;
      }
      log(`${info.kind}: depth ${info.depth} score ${scoreText(info.score)} nodes ${info.nodes} (${info.time} ms)`);
    } catch { /* ignore */ }
  };
}

// --- Actions ---------------------------------------------------------------------------------

async function afterChange() {
  // A rollout is of one decision: gone with it.
  if (rolloutFor !== null && decision() !== rolloutFor) { rolloutFor = null; $('rollout').innerHTML = ''; }
  render();
  if (game.engine_to_move && !thinking && !game.engine_awaits_dice) {
    await engineTurn();
  } else if (humansDecision()) {
    requestAdvice();
  }
}

async function engineTurn() {
  const id = game.id;
  thinking = true;
  selected = null;
  render();
  try {
    const next = await gameRequest('engine');
    if (!next) return;
    game = next;
    if (game.engine_awaits_dice) log('Alea rolls: enter its dice');
    const e = game.last_engine;
    if (e && e.roll) await animateDice(e.roll, true, e.roll_meaning);
    if (e) {
      const what = e.move === '0000' ? 'passes' : `plays ${e.san}`;
      log(e.without_roll ? `Alea plays ${e.san} without rolling` : `Alea rolled ${e.roll.join('+')} and ${what}`);
    }
  } catch (err) {
    showError(err.message);
  } finally {
    // A game started meanwhile has its own turn to think about.
    if (game.id === id) thinking = false;
  }
  if (game.id === id) await afterChange();
}

async function sendMove(uci) {
  showError('');
  $('promotion').hidden = true;
  try {
    const next = await gameRequest('move', { move: uci });
    if (!next) return;
    game = next;
    selected = null;
    // A turn of several micro-moves goes on with the same dice.
    diceShown = game.phase === 'after_roll' && game.turn === game.human && game.roll
      ? { faces: game.roll, engine: false, meaning: game.roll_meaning } : null;
    await afterChange();
  } catch (err) {
    showError(err.message);
    selected = null;
    render();
  }
}

function attempt(from, to) {
  const matches = candidates().filter((c) => c.from === from && c.to === to);
  if (matches.length > 1) {
    const box = $('promotion');
    box.hidden = false;
    box.querySelector('button').focus();
    box.dataset.move = from + to;
    return;
  }
  // A move the page does not know is sent anyway: the server says why it is refused.
  sendMove(matches.length ? matches[0].uci : from + to);
}

function clickSquare(sq) {
  if (!game) return;
  if (viewPly !== null) { viewPly = null; render(); return; }
  if (thinking || game.engine_to_move) { showError('Wait: it is Alea\'s turn.'); return; }
  if (game.phase === 'over') { showError('The game is over: start a new one.'); return; }
  const pieces = parseFen(game.fen);
  if (selected === null) {
    if (isOwnPiece(pieces[sq])) { selected = sq; showError(''); render(); }
    return;
  }
  if (sq === selected) { selected = null; render(); return; }
  const known = candidates().some((c) => c.from === selected && c.to === sq);
  if (!known && isOwnPiece(pieces[sq])) { selected = sq; render(); return; }
  attempt(selected, sq);
}

async function roll() {
  if (game && game.own_dice) { $('faces').focus(); return; }
  if (!humansDecision() || game.phase !== 'before_roll') return;
  await rollWith(undefined);
}

/** Own dice: the faces typed, for the person's roll or Alea's. */
async function enterDice(event) {
  event.preventDefault();
  if (!game || thinking) return;
  const faces = $('faces').value.trim();
  if (!game.engine_awaits_dice) { await rollWith(faces); return; }
  showError('');
  try {
    const next = await gameRequest('roll', { faces });
    if (!next) return;
    game = next;
    await engineTurn();
  } catch (err) {
    showError(err.message);
  }
}

async function rollWith(faces) {
  showError('');
  try {
    const next = await gameRequest('roll', faces === undefined ? undefined : { faces });
    if (!next) return;
    // A roll that allows nothing passes the turn at once: its dice are the last turn's.
    const passed = !next.roll && next.moves.length ? next.moves[next.moves.length - 1] : null;
    await animateDice(next.roll || (passed && passed.roll) || [], false,
      next.roll ? next.roll_meaning : passed && passed.roll_meaning);
    if (passed) log(`You rolled ${passed.roll.join('+')}: no move is allowed, your turn passes`);
    game = next;
    selected = null;
    await afterChange();
  } catch (err) {
    showError(err.message);
  }
}

async function undo() {
  showError('');
  try {
    const next = await gameRequest('undo');
    if (!next) return;
    game = next;
    selected = null;
    viewPly = null;
    diceShown = game.roll && game.turn === game.human ? { faces: game.roll, engine: false, meaning: game.roll_meaning } : null;
    $('analysis').hidden = true;
    await afterChange();
  } catch (err) {
    showError(err.message);
  }
}

async function newGame(event) {
  if (event) event.preventDefault();
  showError('');
  try {
    const body = {
      variant: $('variant').value,
      chess960: $('chess960').checked,
      color: $('color').value,
      movetime: Number($('movetime').value),
      own_dice: $('own-dice').checked,
      skill: Number($('skill').value),
    };
    const fen = $('fen').value.trim();
    if (fen) body.fen = fen;
    await startFrom(api('POST', '/api/games', body));
  } catch (err) {
    showError(err.message);
  }
}

let gamesAsked = 0;

/** Shows the game a request gives, unless another was asked for since: of two new games asked
 *  for at once (the page's first, a click), the last asked stays, whichever answer comes last. */
async function startFrom(request) {
  const ticket = ++gamesAsked;
  const state = await request;
  if (ticket === gamesAsked) start(state);
}

function start(state) {
  game = state;
  // A search for the game left may still be running; its answer is dropped (gameRequest).
  thinking = false;
  // The form shows the game's own settings, so a reloaded game's New game makes one alike.
  $('variant').value = game.variant;
  $('chess960').checked = Boolean(game.chess960);
  $('own-dice').checked = Boolean(game.own_dice);
  $('skill').value = String(game.skill ?? 20);
  if ([...$('movetime').options].some((o) => Number(o.value) === game.movetime)) $('movetime').value = String(game.movetime);
  // The address names the game, so a reload (or a second tab) comes back to it; the browser
  // remembers it too, so that opening the page afresh takes up a game not yet begun.
  history.replaceState(null, '', `#${game.id}`);
  try { localStorage.setItem(LAST_GAME, game.id); } catch (_) { /* storage off: nothing kept */ }
  selected = null;
  viewPly = null;
  // A game taken up again may be waiting for a move after its roll.
  diceShown = game.roll ? { faces: game.roll, engine: false, meaning: game.roll_meaning } : null;
  focusSq = game.human === 'black' ? 'e7' : 'e2';
  $('advice').innerHTML = '';
  $('rollout').innerHTML = '';
  rolloutFor = null;
  $('analysis').hidden = true;
  $('engine-log').textContent = '';
  $('eval-fill').style.height = '50%';
  $('eval-text').textContent = '';
  listen();
  afterChange();
}

async function upload(event) {
  const file = event.target.files[0];
  if (!file) return;
  showError('');
  try {
    const text = await file.text();
    await startFrom(api('POST', '/api/games/import',
      { pgn: text, movetime: Number($('movetime').value), own_dice: $('own-dice').checked, skill: Number($('skill').value) }));
  } catch (err) {
    showError(err.message);
  }
  event.target.value = '';
}

// --- Analysis --------------------------------------------------------------------------------

async function analyse() {
  showError('');
  const button = $('analyse-button');
  button.disabled = true;
  setStatus('Analysing the game…');
  analysing = true;
  try {
    const report = await gameRequest('analysis', { depth: 2 });
    if (report) renderAnalysis(report);
  } catch (err) {
    showError(err.message);
  } finally {
    analysing = false;
    button.disabled = false;
    renderControls();
  }
}

function renderAnalysis(report) {
  $('analysis').hidden = false;
  const who = (side) => (side === game.human ? 'you' : 'Alea');
  $('analysis-summary').innerHTML = '<table><thead><tr><th>side</th><th>moves</th><th>average loss</th><th>luck</th></tr></thead><tbody>'
    + report.summary.map((s) => `<tr><td>${s.side} (${who(s.side)})</td><td class="num">${s.moves}</td><td class="num">${s.average_loss.toFixed(1)}</td><td class="num">${s.luck >= 0 ? '+' : ''}${s.luck}</td></tr>`).join('')
    + '</tbody></table>';
  const turns = report.turns;
  const width = 600; const height = 220; const mid = height / 2;
  const n = Math.max(turns.length, 1);
  const step = width / n;
  const cap = Math.max(100, ...turns.map((t) => Math.min(Math.abs(t.loss), 1000)), ...turns.map((t) => Math.min(Math.abs(t.luck || 0), 1000)));
  const scale = (mid - 10) / cap;
  let svg = `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="Loss of each move and luck of each roll">`;
  svg += `<line x1="0" y1="${mid}" x2="${width}" y2="${mid}" stroke="#888"/>`;
  turns.forEach((t, i) => {
    const h = Math.min(t.loss, 1000) * scale;
    const colour = t.side === 'white' ? '#c53030' : '#6b46c1';
    if (h > 0) svg += `<rect x="${i * step + 1}" y="${mid}" width="${Math.max(step - 2, 1)}" height="${h}" fill="${colour}"><title>${Math.floor(i / 2) + 1}. ${t.san}: loss ${t.loss}</title></rect>`;
  });
  let path = '';
  turns.forEach((t, i) => {
    if (t.luck === null || t.luck === undefined) return;
    const sign = t.side === 'white' ? 1 : -1; // luck drawn for White: up is good for White
    const y = mid - Math.max(-1000, Math.min(1000, sign * t.luck)) * scale;
    path += `${path ? 'L' : 'M'}${(i + 0.5) * step},${y} `;
  });
  if (path) svg += `<path d="${path}" fill="none" stroke="#2f855a" stroke-width="1.5"/>`;
  svg += `<text x="4" y="14" font-size="11">luck for White (green line, up) · loss per move (bars down: red White, purple Black)</text></svg>`;
  $('analysis-chart').innerHTML = svg;
  const worst = turns.filter((t) => t.loss > 0).sort((a, b) => b.loss - a.loss).slice(0, 5);
  const list = $('mistakes');
  list.innerHTML = '';
  if (!worst.length) list.innerHTML = '<li>No move lost anything at this depth.</li>';
  for (const t of worst) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    const d = t.roll_decision;
    const best = d && d.loss > 0 ? (t.best === t.san ? `${d.better} without rolling` : `${t.best}, and ${d.better} without rolling`) : t.best;
    b.textContent = `${Math.floor(t.ply / 2) + 1}${t.side === 'white' ? '.' : '…'} ${t.san} (${t.roll ? 'roll ' + t.roll.join('+') : 'free'}, ${who(t.side)}): lost ${t.loss}, best ${best}`;
    b.addEventListener('click', () => { viewPly = t.ply; selected = null; render(); });
    li.appendChild(b);
    list.appendChild(li);
  }
}

// --- Input -----------------------------------------------------------------------------------

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el && el.closest('.sq') ? el.closest('.sq').dataset.square : null;
}

function setupBoardInput() {
  const board = $('board');
  board.addEventListener('click', (e) => {
    if (suppressClick) { suppressClick = false; return; }
    const sq = e.target.closest('.sq');
    if (sq) { focusSq = sq.dataset.square; clickSquare(sq.dataset.square); }
  });
  board.addEventListener('pointerdown', (e) => {
    const sq = e.target.closest('.sq');
    if (!sq || !humansDecision()) return;
    const piece = parseFen(game.fen)[sq.dataset.square];
    if (!isOwnPiece(piece)) return;
    dragging = { from: sq.dataset.square, x: e.clientX, y: e.clientY, ghost: null, piece };
  });
  window.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    if (!dragging.ghost) {
      if (Math.hypot(e.clientX - dragging.x, e.clientY - dragging.y) < 6) return;
      selected = dragging.from;
      render();
      const ghost = document.createElement('div');
      ghost.className = 'drag-ghost';
      ghost.innerHTML = pieceSvg(dragging.piece);
      document.body.appendChild(ghost);
      dragging.ghost = ghost;
    }
    dragging.ghost.style.left = `${e.clientX}px`;
    dragging.ghost.style.top = `${e.clientY}px`;
  });
  window.addEventListener('pointerup', (e) => {
    if (!dragging) return;
    const drag = dragging;
    dragging = null;
    if (!drag.ghost) return;
    drag.ghost.remove();
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const to = squareAt(e.clientX, e.clientY);
    if (to && to !== drag.from) attempt(drag.from, to);
    else { selected = null; render(); }
  });
  board.addEventListener('keydown', (e) => {
    const order = squareOrder();
    const i = order.indexOf(focusSq);
    const { files } = boardSize(game ? game.fen : '8/8/8/8/8/8/8/8');
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -files, ArrowDown: files };
    if (e.key in moves) {
      const j = i + moves[e.key];
      const sameRow = Math.floor(j / files) === Math.floor(i / files);
      if (j >= 0 && j < order.length && (Math.abs(moves[e.key]) === files || sameRow)) {
        focusSq = order[j];
        board.querySelectorAll('.sq').forEach((el) => { el.tabIndex = el.dataset.square === focusSq ? 0 : -1; });
        board.querySelector(`[data-square="${focusSq}"]`).focus();
      }
      e.preventDefault();
    }
  });
}

/** Fills the variant menu from the engine's list, the default first. */
async function loadVariants() {
  const menu = $('variant');
  for (const v of await api('GET', '/api/variants')) {
    const option = document.createElement('option');
    option.value = v.name;
    option.textContent = v.title;
    option.title = v.summary;
    menu.append(option);
  }
}

async function setup() {
  $('new-game').addEventListener('submit', newGame);
  $('roll-button').addEventListener('click', roll);
  $('dice-entry').addEventListener('submit', enterDice);
  $('pass-button').addEventListener('click', () => sendMove('0000'));
  $('undo-button').addEventListener('click', undo);
  $('analyse-button').addEventListener('click', analyse);
  $('upload-pgn').addEventListener('change', upload);
  $('back-to-game').addEventListener('click', () => { viewPly = null; render(); });
  $('show-advice').addEventListener('change', () => requestAdvice());
  $('rollout-button').addEventListener('click', () => requestRollout());
  $('promotion').addEventListener('click', (e) => {
    const role = e.target.dataset.role;
    if (role) sendMove($('promotion').dataset.move + role);
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'r') roll();
    if (e.key === 'u') undo();
    if (e.key === 'Escape') { selected = null; $('promotion').hidden = true; if (game) render(); }
  });
  setupBoardInput();
  try {
    await loadVariants();
  } catch (err) {
    showError(err.message);
  }
  const id = location.hash.slice(1);
  if (/^[0-9a-f]{16}$/.test(id)) {
    startFrom(api('GET', `/api/games/${id}`)).catch(() => newGame());
  } else {
    const empty = await lastEmptyGame();
    if (empty) start(empty); else newGame();
  }
}

/** Where the browser keeps the id of the game it showed last. */
const LAST_GAME = 'alea-last-game';

/** The game this browser showed last, if nothing has been played in it yet (no move, no roll, no
 *  micro-move): opening the page again takes it up instead of keeping one more empty game. */
async function lastEmptyGame() {
  let id = null;
  try { id = localStorage.getItem(LAST_GAME); } catch (_) { return null; }
  if (!id || !/^[0-9a-f]{16}$/.test(id)) return null;
  try {
    const state = await api('GET', `/api/games/${id}`);
    const untouched = state.moves.length === 0 && !(state.partial || []).length && !state.roll && state.phase !== 'over';
    return untouched ? state : null;
  } catch (_) {
    return null;
  }
}

setup();

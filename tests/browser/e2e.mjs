// End-to-end: alea serve's page in headless Chromium. Usage: node e2e.mjs URL SCREENSHOT_DIR
// Plays a freedom game by clicking, sees the engine answer, has an illegal move refused,
// downloads the PGN and checks it; then plays by keyboard in a phone-sized window.
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [url, outDir] = process.argv.slice(2);
if (!url || !outDir) {
  console.error('usage: node e2e.mjs URL SCREENSHOT_DIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  console.log(`ok: ${message}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

const moveCount = (page) => page.locator('#moves li').count();
const state = (page) => page.evaluate(() => game);

async function waitForOurTurn(page) {
  await page.waitForFunction(() => game && !thinking && !game.engine_to_move && game.phase !== 'over'
    && game.turn === game.human, null, { timeout: 30000 });
}

/** Clicks New game and waits until the new game is the one on show (the page's first game may
 *  still be on its way, and a key pressed before the new one arrives acts on the old one). */
async function clickNewGame(page) {
  await page.waitForFunction(() => game !== null);
  const before = await page.evaluate(() => game.id);
  await page.click('#new-game-button');
  await page.waitForFunction((id) => game && game.id !== id, before);
}

/** Makes White's turn of micro-moves by clicks, each on a piece the dice allow and its first
 *  target (a queen where it promotes), or passes; `afterEach(steps)` after each micro-move. */
async function clickMicroMoves(page, afterEach) {
  let steps = 0;
  while ((await state(page)).phase === 'after_roll' && (await state(page)).turn === 'white') {
    if (await page.isVisible('#pass-button')) { await page.click('#pass-button'); break; }
    const before = (await state(page)).partial.length;
    await page.locator('#board .sq.movable').first().click();
    await page.locator('#board .sq.target').first().click();
    if (await page.isVisible('#promotion')) await page.click('#promotion button[data-role="q"]');
    await page.waitForFunction((n) => game.partial.length > n || game.moves.length > 0, before, { timeout: 10000 });
    steps += 1;
    if (afterEach) await afterEach(steps);
  }
}

/** Rolls and plays an allowed move by clicking its piece and its square (or passes). */
async function rollAndPlayByClicks(page) {
  await page.click('#roll-button');
  await page.waitForFunction(() => game.phase === 'after_roll' && document.querySelectorAll('#dice .die').length > 0);
  if (await page.isVisible('#pass-button')) {
    await page.click('#pass-button');
    return;
  }
  const from = page.locator('#board .sq.movable').first();
  await from.click();
  const target = page.locator('#board .sq.target').first();
  await target.waitFor();
  await target.click();
}

/** Rolls and plays an allowed move by dragging its piece to its square. */
async function rollAndPlayByDrag(page) {
  await page.click('#roll-button');
  await page.waitForFunction(() => game.phase === 'after_roll' && !document.getElementById('dice').classList.contains('rolling'));
  if (await page.isVisible('#pass-button')) {
    await page.click('#pass-button');
    return null;
  }
  const move = await page.evaluate(() => game.allowed.find((u) => u !== '0000'));
  const box = async (sq) => page.locator(`#board .sq[data-square="${sq}"]`).boundingBox();
  const [a, b] = [await box(move.slice(0, 2)), await box(move.slice(2, 4))];
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
  return move;
}

try {
  // --- Desktop: play by clicking ---------------------------------------------------------------
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // Every request the page makes is answered (no favicon 404 in the console).
  const notFound = [];
  page.on('response', (r) => { if (r.status() === 404) notFound.push(r.url()); });
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll('#board .sq').length === 64);
  check(true, 'the page shows a board of 64 squares');
  // Opening the page again takes up the game not yet begun instead of keeping another.
  await page.waitForFunction(() => game !== null);
  const firstId = await page.evaluate(() => game.id);
  await page.goto(url);
  await page.waitForFunction(() => game !== null);
  check(await page.evaluate(() => game.id) === firstId, 'opening the page again takes up its empty game');

  await page.selectOption('#variant', 'freedom');
  await page.selectOption('#color', 'white');
  await page.selectOption('#movetime', '200');
  await clickNewGame(page);
  await waitForOurTurn(page);
  let s = await state(page);
  check(s.variant === 'freedom' && s.moves.length === 0 && s.human === 'white', 'a new freedom game with us as White');

  await rollAndPlayByClicks(page);
  await page.waitForFunction(() => game.moves.length >= 2, null, { timeout: 30000 });
  await waitForOurTurn(page);
  s = await state(page);
  check(s.moves[0].by === 'you' && s.moves[1].by === 'engine', 'our move was played and the engine answered');
  check(await moveCount(page) === s.moves.length, 'the move list shows every move');
  const log = await page.textContent('#engine-log');
  check(/Alea (rolled|plays)/.test(log), 'the engine\'s turn is announced');

  // Roll out our decision before the roll: the best choices played out, each with its result.
  await page.click('#rollout-button');
  await page.waitForSelector('#rollout table tbody tr', { timeout: 30000 });
  const rolledOut = await page.locator('#rollout table tbody tr').count();
  check(rolledOut >= 1 && /games a move, both sides one turn deep, the luck of each roll taken out/.test(await page.textContent('#rollout')), `a rollout shows ${rolledOut} choices played out`);

  // Roll, then try a move the roll does not allow: pick a movable piece and click an empty
  // square that is not one of its targets.
  await page.click('#roll-button');
  await page.waitForFunction(() => game.phase === 'after_roll');
  const before = (await state(page)).moves.length;
  if (!(await page.isVisible('#pass-button'))) {
    const from = await page.locator('#board .sq.movable').first().getAttribute('data-square');
    await page.click(`#board .sq[data-square="${from}"]`);
    // A knight's move is a real chess move; when the roll does not allow it, it is the
    // illegal move to try. Otherwise, the movable piece to a square it cannot reach.
    const [badFrom, bad] = await page.evaluate((from) => {
      const pieces = parseFen(game.fen);
      for (const [f, t] of [['b1', 'c3'], ['g1', 'f3'], ['b1', 'a3'], ['g1', 'h3']]) {
        if (pieces[f] === 'N' && !pieces[t] && !game.allowed.includes(f + t)) return [f, t];
      }
      const targets = new Set(game.allowed.filter((u) => u.startsWith(from)).map((u) => u.slice(2, 4)));
      return [from, [...document.querySelectorAll('#board .sq')].map((e) => e.dataset.square)
        .find((sq) => !pieces[sq] && !targets.has(sq) && sq !== from)];
    }, from);
    if (badFrom !== from) {
      await page.click(`#board .sq[data-square="${from}"]`); // deselect
      await page.click(`#board .sq[data-square="${badFrom}"]`);
    }
    await page.click(`#board .sq[data-square="${bad}"]`);
    await page.waitForFunction(() => document.getElementById('error').textContent.length > 0);
    const error = await page.textContent('#error');
    check(/illegal move/.test(error), `the illegal move ${badFrom}${bad} is refused: "${error}"`);
    s = await state(page);
    check(s.moves.length === before && s.phase === 'after_roll', 'the refused move changed nothing');
    await page.screenshot({ path: join(outDir, 'illegal-move.png') });
    // Now a legal one.
    await page.locator('#board .sq.movable').first().click();
    await page.locator('#board .sq.target').first().click();
  } else {
    await page.click('#pass-button');
  }
  await page.waitForFunction((n) => game.moves.length >= n + 2, before, { timeout: 30000 });
  await waitForOurTurn(page);
  await page.waitForFunction(() => document.querySelector('#advice table') !== null, null, { timeout: 10000 });
  const movesBeforeDrag = (await state(page)).moves.length;
  const dragged = await rollAndPlayByDrag(page);
  await page.waitForFunction((n) => game.moves.length > n, movesBeforeDrag, { timeout: 30000 });
  if (dragged) {
    s = await state(page);
    check(s.moves[movesBeforeDrag].uci === dragged && s.moves[movesBeforeDrag].by === 'you', `a move played by dragging (${dragged})`);
  }
  await waitForOurTurn(page);
  await page.click('#roll-button');
  await page.waitForFunction(() => game.phase === 'after_roll');
  await page.waitForFunction(() => document.querySelector('#advice table[aria-label="Moves ranked"]') !== null, null, { timeout: 10000 });
  await page.screenshot({ path: join(outDir, 'desktop.png') });
  check(true, 'desktop screenshot saved');

  // Download the PGN and check it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-pgn')]);
  const pgnPath = join(outDir, 'game.pgn');
  await download.saveAs(pgnPath);
  const pgn = readFileSync(pgnPath, 'utf8');
  s = await state(page);
  check(pgn.includes('[Variant "freedom"]'), 'the PGN names the variant');
  const rolls = (pgn.match(/\[%roll \d\]/g) || []).length;
  const free = (pgn.match(/\[%freedom/g) || []).length;
  check(rolls + free === s.moves.length, `the PGN has a roll or Freedom mark for each of the ${s.moves.length} moves`);
  for (const m of s.moves) check(pgn.includes(m.pass ? '--' : m.san), `the PGN has ${m.san}`);

  // Analysis of the game so far.
  await page.click('#analyse-button');
  await page.waitForSelector('#analysis:not([hidden]) #analysis-chart svg', { timeout: 60000 });
  check(true, 'the analysis chart is drawn');

  // --- dicechess3: three dice, a turn made one micro-move at a time ---------------------------
  await page.selectOption('#variant', 'dicechess3');
  await page.click('#new-game-button');
  await page.waitForFunction(() => game.variant === 'dicechess3');
  await waitForOurTurn(page);
  s = await state(page);
  check(s.variant === 'dicechess3' && s.dice === 3 && s.moves.length === 0, 'a new dicechess3 game');
  await page.click('#roll-button');
  await page.waitForFunction(() => (game.phase === 'after_roll' || game.moves.length > 0)
    && !document.getElementById('dice').classList.contains('rolling'));
  check(await page.locator('#dice .die').count() === 3, 'three dice are shown');
  await clickMicroMoves(page, async (steps) => {
    s = await state(page);
    if (s.phase === 'after_roll' && s.turn === 'white') {
      const used = await page.locator('#dice .die.used').count();
      check(used === steps, `after ${steps} micro-move(s), ${used} die greyed out`);
      if (steps === 1) {
        // The advice on the rest of the turn, then the picture for the README.
        await page.waitForFunction(() => document.querySelector('#advice table[aria-label="Moves ranked"]') !== null,
          null, { timeout: 10000 });
        await page.screenshot({ path: join(outDir, 'dicechess3.png') });
      }
    }
  });
  await page.waitForFunction(() => game.moves.length >= 2, null, { timeout: 30000 });
  s = await state(page);
  check(s.moves[0].by === 'you' && s.moves[0].roll.length === 3 && s.moves[1].by === 'engine',
    `our turn of micro-moves (${s.moves[0].san}) was played and the engine answered`);
  const [download3] = await Promise.all([page.waitForEvent('download'), page.click('#download-pgn')]);
  const pgn3 = join(outDir, 'dicechess3.pgn');
  await download3.saveAs(pgn3);
  check(/\[%roll \d,\d,\d\]/.test(readFileSync(pgn3, 'utf8')), 'the dicechess3 PGN has three-dice rolls');

  // --- Own dice: every roll typed, the engine's too -----------------------------------------
  // Started while Alea still thinks (3 s) about a game as Black: its late answer must not bring
  // that game back.
  await page.selectOption('#color', 'black');
  await page.selectOption('#movetime', '3000');
  await page.click('#new-game-button');
  await page.waitForFunction(() => game.human === 'black' && thinking);
  const left = await page.evaluate(() => game.id);
  await page.selectOption('#color', 'white');
  await page.selectOption('#movetime', '200');
  await page.check('#own-dice');
  await page.click('#new-game-button');
  await page.waitForFunction(() => game.own_dice && game.moves.length === 0);
  await waitForOurTurn(page);
  const ownId = await page.evaluate(() => game.id);
  await page.waitForTimeout(3500);
  s = await state(page);
  check(s.id === ownId && s.id !== left && s.moves.length === 0 && (await page.evaluate(() => location.hash)) === `#${ownId}`,
    'the search of the game left ended without bringing it back');
  check(await page.isVisible('#dice-entry') && !(await page.isVisible('#roll-button')),
    'with own dice the roll is typed, not rolled');
  await page.fill('#faces', '1 4');
  await page.press('#faces', 'Enter');
  await page.waitForFunction(() => /rolls 3 dice/.test(document.getElementById('error').textContent));
  check((await state(page)).phase === 'before_roll', 'two faces for three dice are refused, nothing changed');
  await page.fill('#faces', '1 4 6');
  await page.press('#faces', 'Enter');
  await page.waitForFunction(() => game.phase === 'after_roll' && !document.getElementById('dice').classList.contains('rolling'));
  check(JSON.stringify((await state(page)).roll) === '[1,4,6]', 'our typed roll is the turn\'s dice');
  await clickMicroMoves(page);
  await page.waitForFunction(() => game.engine_awaits_dice && !thinking);
  check((await page.textContent('#dice-entry-who')) === 'Alea\'s roll', 'Alea waits for its dice to be typed');
  await page.fill('#faces', '2 2 5');
  await page.press('#faces', 'Enter');
  await page.waitForFunction(() => game.moves.length >= 2 && !thinking, null, { timeout: 30000 });
  s = await state(page);
  check(s.moves[1].by === 'engine' && JSON.stringify(s.moves[1].roll) === '[2,2,5]',
    `Alea played ${s.moves[1].san} on the dice typed for it`);
  // A reload takes the game up again, and the form shows its settings for the next new game.
  await page.uncheck('#own-dice');
  await page.selectOption('#variant', 'freedom');
  await page.reload();
  await page.waitForFunction((id) => game && game.id === id, s.id);
  check(await page.isChecked('#own-dice') && (await page.inputValue('#variant')) === 'dicechess3',
    'a reloaded game shows its own settings in the form');
  await page.uncheck('#own-dice');

  // dicechess3's three dice and their words (what each shows, the dice left) are wider than the
  // 8x8 board: the moves column beside it stays put when they are shown.
  // Our own dice, so the words are the same every run: 1 2 3 at the start (a pawn, a knight, a
  // bishop, and the dice left).
  await page.selectOption('#variant', 'dicechess3');
  await page.selectOption('#color', 'white');
  await page.check('#own-dice');
  await clickNewGame(page);
  await page.waitForFunction(() => game.variant === 'dicechess3' && game.own_dice);
  await waitForOurTurn(page);
  const sideBefore = (await page.locator('#side').boundingBox()).x;
  await page.fill('#faces', '1 2 3');
  await page.press('#faces', 'Enter');
  await page.waitForFunction(() => game.phase === 'after_roll' && !document.getElementById('dice').classList.contains('rolling'));
  await page.uncheck('#own-dice');
  const meaningWidth = await page.evaluate(() => document.getElementById('roll-meaning').textContent.length);
  const sideAfter = (await page.locator('#side').boundingBox()).x;
  check(sideAfter === sideBefore,
    `the moves column stays put when the dice are shown (${sideBefore} px, then ${sideAfter} px; ${meaningWidth} characters of dice)`);

  // Grand's 12x12 board at 1280x900: the board, its dice and the Roll button in view, and the
  // engine's panel beside it.
  await page.selectOption('#variant', 'grand');
  await clickNewGame(page);
  await page.waitForFunction(() => game.variant === 'grand' && document.querySelectorAll('#board .sq').length === 144);
  await waitForOurTurn(page);
  const rollBox = await page.locator('#roll-button').boundingBox();
  const engineTop = (await page.locator('#side h2').nth(1).boundingBox()).y;
  check(rollBox.y + rollBox.height <= 900 && engineTop <= 900,
    `the 12x12 board leaves the Roll button (bottom at ${Math.round(rollBox.y + rollBox.height)} px) and the engine's panel in view`);
  check(pageErrors.length === 0, `no script errors (${pageErrors.join('; ')})`);
  check(notFound.length === 0, `no request of the page answered 404 (${notFound.join(', ')})`);
  // An icon of its own, given in the page: a browser then asks no /favicon.ico to be refused.
  check(await page.evaluate(() => !!document.querySelector('link[rel="icon"]')), 'the page names its icon');
  await context.close();

  // --- Phone-sized, by keyboard --------------------------------------------------------------
  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, hasTouch: true });
  const p = await phone.newPage();
  await p.goto(url);
  await p.waitForFunction(() => document.querySelectorAll('#board .sq').length === 64 && game !== null);
  await p.selectOption('#movetime', '200');
  await clickNewGame(p);
  await waitForOurTurn(p);
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth);
  check(overflow <= 375, `nothing is wider than the phone (${overflow} px)`);
  const boardBox = await p.locator('#board').boundingBox();
  check(boardBox.width <= 375 && boardBox.width >= 250, `the board fits the phone (${Math.round(boardBox.width)} px)`);

  // Keyboard only: r rolls, arrows walk the board, Enter picks the piece and the square.
  await p.keyboard.press('r');
  await p.waitForFunction(() => game.phase === 'after_roll' && !document.getElementById('dice').classList.contains('rolling'));
  const plan = await p.evaluate(() => {
    const pieces = parseFen(game.fen);
    const m = game.allowed.find((u) => u !== '0000' && pieces[u.slice(0, 2)]);
    return m ? { from: m.slice(0, 2), to: m.slice(2, 4) } : null;
  });
  if (plan) {
    await p.focus('#board .sq[tabindex="0"]');
    const walkTo = async (target) => {
      const order = await p.evaluate(() => squareOrder());
      const current = await p.evaluate(() => document.activeElement.dataset.square);
      const [a, b] = [order.indexOf(current), order.indexOf(target)];
      const rows = Math.floor(b / 8) - Math.floor(a / 8);
      const cols = (b % 8) - (a % 8);
      for (let i = 0; i < Math.abs(rows); i++) await p.keyboard.press(rows > 0 ? 'ArrowDown' : 'ArrowUp');
      for (let i = 0; i < Math.abs(cols); i++) await p.keyboard.press(cols > 0 ? 'ArrowRight' : 'ArrowLeft');
    };
    await walkTo(plan.from);
    await p.keyboard.press('Enter');
    await walkTo(plan.to);
    await p.screenshot({ path: join(outDir, 'phone-keyboard.png') });
    await p.keyboard.press('Enter');
    await p.waitForFunction(() => game.moves.length >= 1 && game.moves[0].by === 'you', null, { timeout: 10000 });
    check(true, `a move played by keyboard alone (${plan.from}${plan.to})`);
  } else {
    await p.click('#pass-button');
  }
  await waitForOurTurn(p);
  await p.screenshot({ path: join(outDir, 'phone.png'), fullPage: true });
  check(true, 'phone screenshots saved');

  // --- brainking10 on the phone: a 10x10 board that still fits, a move by taps -----------------
  await p.selectOption('#variant', 'brainking10');
  await p.selectOption('#color', 'white');
  await p.click('#new-game-button');
  await p.waitForFunction(() => game.variant === 'brainking10' && document.querySelectorAll('#board .sq').length === 100);
  await waitForOurTurn(p);
  const wide = await p.evaluate(() => document.documentElement.scrollWidth);
  const box10 = await p.locator('#board').boundingBox();
  check(wide <= 375 && box10.width <= 375 && box10.width >= 250,
    `the 10x10 board fits the phone (${Math.round(box10.width)} px, page ${wide} px)`);
  check(await p.locator('#board .sq[data-square="j10"]').count() === 1, 'the tenth file and rank are drawn');
  const shades = await p.evaluate(() => ['a1', 'j1', 'a10', 'j10'].map((sq) =>
    document.querySelector(`#board .sq[data-square="${sq}"]`).classList.contains('dark')));
  check(shades.join() === 'true,false,false,true', `a1 and j10 dark, j1 and a10 light (${shades})`);
  await p.click('#roll-button');
  await p.waitForFunction(() => game.phase === 'after_roll' && !document.getElementById('dice').classList.contains('rolling'));
  await p.locator('#board .sq.movable').first().click();
  await p.locator('#board .sq.target').first().click();
  await p.waitForFunction(() => game.moves.length >= 1 && game.moves[0].by === 'you', null, { timeout: 10000 });
  check(true, `a 10x10 move played by taps (${(await state(p)).moves[0].uci})`);
  await waitForOurTurn(p);
  await p.screenshot({ path: join(outDir, 'phone-brainking10.png'), fullPage: true });

  // --- grand on the phone: a 12x12 board that still fits, a micro-move by taps -------------------
  await p.selectOption('#variant', 'grand');
  await p.selectOption('#color', 'white');
  await p.click('#new-game-button');
  await p.waitForFunction(() => game.variant === 'grand' && document.querySelectorAll('#board .sq').length === 144);
  await waitForOurTurn(p);
  const wide12 = await p.evaluate(() => document.documentElement.scrollWidth);
  const box12 = await p.locator('#board').boundingBox();
  check(wide12 <= 375 && box12.width <= 375 && box12.width >= 250,
    `the 12x12 board fits the phone (${Math.round(box12.width)} px, page ${wide12} px)`);
  const shades12 = await p.evaluate(() => ['a1', 'l1', 'a12', 'l12'].map((sq) =>
    document.querySelector(`#board .sq[data-square="${sq}"]`).classList.contains('dark')));
  check(shades12.join() === 'true,false,false,true', `a1 and l12 dark, l1 and a12 light (${shades12})`);
  await p.click('#roll-button');
  await p.waitForFunction(() => game.phase === 'after_roll' && !document.getElementById('dice').classList.contains('rolling'));
  check((await state(p)).dice_left.length === 4, `four dice rolled (${(await state(p)).dice_left})`);
  await p.locator('#board .sq.movable').first().click();
  await p.locator('#board .sq.target').first().click();
  await p.waitForFunction(() => (game.partial || []).length >= 1 || game.moves.length >= 1, null, { timeout: 10000 });
  check(true, `a 12x12 micro-move played by taps (${JSON.stringify((await state(p)).partial)})`);
  await p.screenshot({ path: join(outDir, 'phone-grand.png'), fullPage: true });
  await phone.close();
  console.log('all browser checks passed');
} catch (e) {
  console.error(e);
  for (const context of browser.contexts()) {
    for (const [i, page] of context.pages().entries()) {
      await page.screenshot({ path: join(outDir, `failure-${i}.png`) }).catch(() => {});
      console.error('page state:', await page.evaluate(() => JSON.stringify({ game, thinking, selected,
        error: document.getElementById('error').textContent, status: document.getElementById('status').textContent })).catch(() => '?'));
    }
  }
  process.exitCode = 1;
} finally {
  await browser.close();
}

/* The knightstour web board's Numbers mode: a knight's tour number puzzle to fill in.
 *
 * The page gets a puzzle from api/numbers (board, level, seed, givens: never the solution) and
 * sends the givens and the player's entries to api/numbers/check (which entries are wrong) and
 * api/numbers/hint (the next deduction in words, and its squares). The state is in the address
 * (#mode=numbers&board=6x6&level=easy&seed=7&entries=a1:3,b3:4): a link reproduces the puzzle
 * and the numbers entered. app.js runs the other modes and leaves this one alone.
 */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const num = {
    active: false,
    puzzle: null,        // api/numbers's answer
    W: 0, H: 0, N: 0,
    givens: new Map(),   // square name -> number
    entries: new Map(),  // square name -> number, the player's
    history: [],         // [name, number before (or undefined)] a change, for Undo
    focus: null,         // the square name with the keyboard focus (and the selection)
    editing: null,       // the square the last digit went into (the next digit extends it)
    wrong: new Set(), hinted: new Set(),
    hints: 0, start: 0, stopped: null, timer: null, solved: false,
  };
  const cells = new Map();  // square name -> td
  // the boxes' choices: the square boards the server plays (sides 5 to 10) and the levels
  const SIDES = [5, 6, 7, 8, 9, 10], LEVELS = ["easy", "medium", "hard", "expert"];

  function choose(select, value) {
    /* Select ``value`` in the box, adding it first when it is not among the choices (a link to
     * a rectangle, say 7x9), so that the box shows the puzzle on the board. */
    if (![...select.options].some((o) => o.value === value)) select.add(new Option(value, value));
    select.value = value;
  }

  function fileName(x) {
    let s = "";
    for (x += 1; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(97 + (x - 1) % 26) + s;
    return s;
  }
  const nameOf = (x, y) => `${fileName(x)}${y + 1}`;

  async function api(path, params, body) {
    const url = path + (params ? "?" + new URLSearchParams(params) : "");
    const init = body === undefined ? undefined : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    };
    const r = await fetch(url, init);
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
    if (!r.ok) throw new Error(data && data.error ? data.error : `HTTP ${r.status}`);
    return data;
  }

  function message(text, kind) {
    const m = $("numbers-msg");
    m.textContent = text;
    m.className = "puzzle-msg numbers-msg" + (kind ? ` ${kind}` : "");
  }
  const say = (text) => { $("numbers-live").textContent = text; };

  // -- the mode: Numbers beside Solve and Puzzle -------------------------------------------

  // Numbers mode on: a new puzzle unless one is shown (or ``loading``: the address's is coming).
  function enter(loading) {
    if (num.active) return;
    num.active = true;
    for (const id of ["tab-solve", "tab-puzzle"]) {
      $(id).setAttribute("aria-selected", "false");
      $(id).tabIndex = -1;
    }
    $("tab-numbers").setAttribute("aria-selected", "true");
    $("tab-numbers").tabIndex = 0;
    document.querySelector("main > .stage").hidden = true;
    document.querySelector("main > .side").hidden = true;
    $("numbers-view").hidden = false;
    skipTo("#numbers-grid", "Skip to the puzzle");  // the board is hidden in this mode
    document.body.dataset.mode = "numbers";
    if (num.puzzle) saveHash(); else if (loading !== true) load({ board: $("numbers-board").value, level: $("numbers-level").value });
  }

  function skipTo(target, words) {
    /* Point the page's skip link at what this mode shows. */
    const link = document.querySelector("a.skip");
    if (link) { link.href = target; link.textContent = words; }
  }

  function leave(tab) {
    if (!num.active) return;
    num.active = false;
    $("tab-numbers").setAttribute("aria-selected", "false");
    $("tab-numbers").tabIndex = -1;
    for (const id of ["tab-solve", "tab-puzzle"]) {
      $(id).setAttribute("aria-selected", String(id === tab));
      $(id).tabIndex = id === tab ? 0 : -1;
    }
    $("numbers-view").hidden = true;
    document.querySelector("main > .stage").hidden = false;
    document.querySelector("main > .side").hidden = false;
    skipTo("#board-wrap", "Skip to the board");
    document.body.dataset.mode = tab === "tab-puzzle" ? "puzzle" : "solve";
    if (new URLSearchParams(location.hash.slice(1)).get("mode") === "numbers") {
      history.replaceState(null, "", location.pathname + location.search);  // app.js's is kept
    }
  }

  // -- a puzzle: made by the server from board, level and seed (or the day's) -----------------

  let loads = 0;  // the latest load wins: an earlier answer that comes later is dropped
  async function load(params, entries) {
    const seq = ++loads;
    asks++;  // an answer to a check or a hint of the puzzle before is dropped
    message("Making a puzzle...", "busy");
    let p;
    try {
      p = await api("api/numbers", params);
    } catch (e) {
      if (seq === loads) message(`Could not make the puzzle: ${e.message}`, "error");
      return;
    }
    if (seq !== loads) return;
    num.puzzle = p;
    num.W = p.width; num.H = p.height; num.N = p.size;
    num.givens = new Map(Object.entries(p.givens));
    num.entries = new Map();
    const squares = new Set();
    for (let y = 0; y < num.H; y++) for (let x = 0; x < num.W; x++) squares.add(nameOf(x, y));
    for (const [k, v] of entries || []) {
      if (squares.has(k) && !num.givens.has(k) && v >= 1 && v <= num.N) num.entries.set(k, v);
    }
    num.history = []; num.wrong = new Set(); num.hinted = new Set();
    num.hints = 0; num.solved = false; num.editing = null;
    num.focus = null;
    choose($("numbers-board"), `${p.width}x${p.height}`);
    choose($("numbers-level"), p.level);
    $("numbers-about").textContent = (p.daily ? `Daily numbers of ${p.daily}, the same for everyone today: ` : "") +
      `${p.width}x${p.height}, ${p.level}, seed ${p.seed}; ${num.givens.size} numbers given, 1 to ${p.size}.`;
    $("numbers-hint").textContent = "";
    draw();
    startClock();
    message(`Fill in 1 to ${p.size}: each number a knight's move from the next.`, "");
    saveHash();
    if (filledCount() === num.W * num.H) check(true);
  }

  function draw() {
    const t = $("numbers-grid");
    t.textContent = "";
    cells.clear();
    for (let y = num.H - 1; y >= 0; y--) {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row"; th.textContent = String(y + 1);
      tr.appendChild(th);
      for (let x = 0; x < num.W; x++) {
        const name = nameOf(x, y);
        const td = document.createElement("td");
        td.setAttribute("role", "gridcell");
        td.dataset.square = name;
        td.tabIndex = -1;
        td.addEventListener("click", () => { select(name); });
        cells.set(name, td);
        tr.appendChild(td);
      }
      t.appendChild(tr);
    }
    const foot = document.createElement("tr");
    foot.appendChild(document.createElement("td")).className = "corner";
    foot.lastChild.setAttribute("aria-hidden", "true");
    for (let x = 0; x < num.W; x++) {
      const th = document.createElement("th");
      th.scope = "col"; th.textContent = fileName(x);
      foot.appendChild(th);
    }
    t.appendChild(foot);
    for (const name of cells.keys()) show(name);
    setFocus(num.focus || nameOf(0, num.H - 1), false);
    showCounts();
  }

  function show(name) {
    const td = cells.get(name);
    const given = num.givens.get(name);
    const entry = num.entries.get(name);
    const value = given ?? entry;
    td.textContent = value === undefined ? "" : String(value);
    td.className = [given !== undefined ? "given" : (entry !== undefined ? "entry" : ""),
      num.wrong.has(name) ? "wrong" : "", num.hinted.has(name) ? "hinted" : "",
      name === num.focus ? "selected" : ""].filter(Boolean).join(" ");
    td.setAttribute("aria-readonly", String(given !== undefined));
    td.setAttribute("aria-selected", String(name === num.focus));
    td.setAttribute("aria-label", `${name}: ` + (given !== undefined ? `given ${given}` :
      entry !== undefined ? `${entry}` : "empty") + (num.wrong.has(name) ? ", wrong" : "") +
      (num.hinted.has(name) ? ", in the hint" : ""));
  }

  const filledCount = () => num.givens.size + num.entries.size;
  function showCounts() {
    $("numbers-filled").textContent = `${filledCount()}/${num.W * num.H}`;
    $("numbers-hints").textContent = String(num.hints);
  }

  // -- the clock -------------------------------------------------------------------------------

  function startClock() {
    num.start = Date.now(); num.stopped = null;
    clearInterval(num.timer);
    num.timer = setInterval(showClock, 1000);
    showClock();
  }
  const elapsed = () => Math.floor(((num.stopped ?? Date.now()) - num.start) / 1000);
  const clockText = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  function showClock() { $("numbers-timer").textContent = clockText(elapsed()); }

  // -- the keyboard and the mouse: select a square, type its number ------------------------------

  function setFocus(name, focus = true) {
    const before = num.focus;
    num.focus = name;
    if (before && cells.has(before)) { cells.get(before).tabIndex = -1; show(before); }
    const td = cells.get(name);
    td.tabIndex = 0;
    show(name);
    if (focus) td.focus();
  }

  function select(name) {
    if (num.focus !== name) num.editing = null;
    setFocus(name);
  }

  function write(name, value, extends_) {
    /* Write ``value`` (undefined: clear) on ``name``; ``extends_``: a digit added to the number
     * being typed there, which Undo takes back with the number. False when nothing changed. */
    if (num.givens.has(name) || num.solved) return false;
    const before = num.entries.get(name);
    if (before === value) return false;
    const last = num.history[num.history.length - 1];
    if (!(extends_ && last && last[0] === name)) num.history.push([name, before]);
    if (value === undefined) num.entries.delete(name); else num.entries.set(name, value);
    num.wrong.delete(name);
    afterChange(name);
    return true;
  }

  function afterChange(name) {
    show(name);
    showCounts();
    saveHash();
    if (filledCount() === num.W * num.H) check(true);
  }

  function digit(d) {
    const name = num.focus;
    if (!name || num.givens.has(name)) {
      say(name ? `${name} is given: ${num.givens.get(name)}` : "");
      return;
    }
    const cur = num.entries.get(name);
    let value = d;
    const longer = num.editing === name && cur !== undefined && cur * 10 + d <= num.N;
    if (longer) value = cur * 10 + d;
    if (value < 1) return;
    num.editing = name;
    if (write(name, value, longer)) say(`${name}: ${value}`);
  }

  function keys(ev) {
    if (!num.active || !num.focus || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    const inGrid = $("numbers-grid").contains(t);
    const key = ev.key;
    const x = cells.get(num.focus).cellIndex - 1;
    const y = num.H - 1 - cells.get(num.focus).parentElement.rowIndex;
    let to = null;
    if (inGrid && key === "ArrowLeft") to = nameOf(Math.max(0, x - 1), y);
    else if (inGrid && key === "ArrowRight") to = nameOf(Math.min(num.W - 1, x + 1), y);
    else if (inGrid && key === "ArrowUp") to = nameOf(x, Math.min(num.H - 1, y + 1));
    else if (inGrid && key === "ArrowDown") to = nameOf(x, Math.max(0, y - 1));
    else if (inGrid && (key === "Enter" || key === " ")) {
      select(num.focus);
      say(cells.get(num.focus).getAttribute("aria-label") + ", selected");
    } else if (inGrid && /^[0-9]$/.test(key)) digit(Number(key));
    else if (inGrid && (key === "Backspace" || key === "Delete")) {
      num.editing = null;
      if (write(num.focus, undefined)) say(`${num.focus} cleared`);
    } else if (inGrid && (key === "c" || key === "C")) check(false);  // in the grid only: a
    else if (inGrid && (key === "h" || key === "H")) hint();          // letter typed elsewhere
    else if (inGrid && (key === "u" || key === "U")) undo();          // is the page's to take
    else return;
    ev.preventDefault();
    if (to !== null) select(to);
  }

  function undo() {
    const last = num.history.pop();
    if (!last || num.solved) { say("Nothing to undo"); return; }
    const [name, before] = last;
    if (before === undefined) num.entries.delete(name); else num.entries.set(name, before);
    num.editing = null;
    num.wrong.delete(name);
    setFocus(name);
    afterChange(name);
    say(`Undone: ${name} ${before === undefined ? "empty" : `back to ${before}`}`);
  }

  // -- Check, Hint: the server knows the answer, the page does not ------------------------------

  const body = () => ({
    width: num.W, height: num.H, closed: num.puzzle.closed,
    givens: Object.fromEntries(num.givens), entries: Object.fromEntries(num.entries),
  });

  // An answer of the server's is shown only if it is the answer to the latest question and the
  // grid still is what was asked about (a number typed meanwhile, a new puzzle: dropped).
  let asks = 0;
  async function ask(path) {
    const seq = ++asks, sent = body(), asked = JSON.stringify(sent);
    const r = await api(path, undefined, sent);
    return seq === asks && JSON.stringify(body()) === asked ? r : null;
  }

  async function check(auto) {
    if (!num.puzzle || num.solved) return;
    let r;
    try {
      r = await ask("api/numbers/check");
    } catch (e) {
      message(`Could not check: ${e.message}`, "error");
      return;
    }
    if (r === null || num.solved) return;
    if (r.solved) {
      num.solved = true;
      num.stopped = Date.now();
      clearInterval(num.timer);
      showClock();
      num.wrong = new Set(); num.hinted = new Set();
      for (const name of cells.keys()) show(name);
      message(`Solved in ${clockText(elapsed())}` + (num.hints ? ` with ${num.hints} hint${num.hints > 1 ? "s" : ""}` : "") +
        `: every number a knight's move from the next.`, "win");
      return;
    }
    num.wrong = new Set(r.wrong);
    for (const name of cells.keys()) show(name);
    if (r.wrong.length) {
      message(`${r.wrong.length} wrong: ${r.wrong.join(", ")}.`, "error");
    } else if (!auto) {
      message(`No wrong numbers so far; ${num.W * num.H - filledCount()} squares to fill.`, "ok");
    }
  }

  async function hint() {
    if (!num.puzzle || num.solved) return;
    let r;
    try {
      r = await ask("api/numbers/hint");
    } catch (e) {
      message(`Could not get a hint: ${e.message}`, "error");
      return;
    }
    if (r === null || num.solved) return;
    num.hints += r.status === "hint" ? 1 : 0;
    num.hinted = new Set(r.squares);
    for (const name of cells.keys()) show(name);
    showCounts();
    const words = r.reason.charAt(0).toUpperCase() + r.reason.slice(1);
    $("numbers-hint").textContent = `Hint: ${words}` + (r.squares.length ? ` (squares ${r.squares.join(", ")})` : "");
  }

  // -- the address: a link reproduces the puzzle and the numbers entered ----------------------

  function hashParams() {
    const p = num.puzzle;
    const q = [["mode", "numbers"], ["board", `${p.width}x${p.height}`], ["level", p.level], ["seed", p.seed]];
    if (p.daily) q.push(["daily", p.daily]);  // the day's puzzle, labelled as such (fromHash)
    if (num.entries.size) q.push(["entries", [...num.entries].map(([k, v]) => `${k}:${v}`).join(",")]);
    return q.map(([k, v]) => `${k}=${String(v)}`).join("&");
  }

  function saveHash() {
    if (!num.active || !num.puzzle) return;
    const hash = hashParams();
    if (location.hash.slice(1) !== hash) history.replaceState(null, "", `#${hash}`);
    $("numbers-share").value = `${location.origin}${location.pathname}#${hash}`;
  }

  function fromHash() {
    const q = new URLSearchParams(location.hash.slice(1));
    if (q.get("mode") !== "numbers") return false;
    const entries = [];
    for (const item of (q.get("entries") || "").split(",")) {
      const [k, v] = item.split(":");
      if (k && /^[0-9]+$/.test(v || "")) entries.push([k, Number(v)]);
    }
    num.puzzle = null;
    enter(true);
    const day = q.get("daily");
    if (day && /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(day)) {
      load({ daily: day }, entries);  // that day's puzzle, the label kept
    } else if (q.get("seed")) {
      load({ board: q.get("board") || "6x6", level: q.get("level") || "easy", seed: q.get("seed") }, entries);
    } else if (q.has("daily")) {
      load({ daily: "true" }, entries);
    } else {
      load({ board: q.get("board") || "6x6", level: q.get("level") || "easy" }, entries);
    }
    return true;
  }

  // -- wiring -----------------------------------------------------------------------------------

  function wire() {
    $("tab-numbers").addEventListener("click", () => enter());
    $("tab-solve").addEventListener("click", () => leave("tab-solve"));
    $("tab-puzzle").addEventListener("click", () => leave("tab-puzzle"));
    $("numbers-new").addEventListener("click", () => load({ board: $("numbers-board").value, level: $("numbers-level").value }));
    $("numbers-daily").addEventListener("click", () => load({ daily: "true" }));
    $("numbers-check").addEventListener("click", () => check(false));
    $("numbers-hint-btn").addEventListener("click", hint);
    $("numbers-undo").addEventListener("click", undo);
    $("numbers-copy").addEventListener("click", async () => {
      try { await navigator.clipboard.writeText($("numbers-share").value); } catch (e) { $("numbers-share").select(); }
      $("numbers-copy").textContent = "Copied";
      setTimeout(() => { $("numbers-copy").textContent = "Copy link"; }, 2000);
    });
    document.addEventListener("keydown", keys);
    window.addEventListener("hashchange", () => {
      if (num.puzzle && location.hash.slice(1) === hashParams()) return;
      fromHash();
    });
  }

  function start() {
    for (const n of SIDES) $("numbers-board").add(new Option(`${n}x${n}`, `${n}x${n}`, false, n === 6));
    for (const l of LEVELS) $("numbers-level").add(new Option(l, l));
    wire();
    fromHash();
  }
  if (document.body.dataset.ready === "true") start();
  else document.addEventListener("knightstour:ready", start, { once: true });
})();

/* The knightstour web board: solve and animate tours, and puzzle mode. No build step.
 *
 * Squares are indices (z * H + y) * W + x (x the file, y the rank, z the layer, a1 = 0), as in
 * the Python package; names are algebraic (files a..z, aa, ab, ...), with ":layer" on a 3-D board
 * (c3:2). The page talks to the JSON API: api/solve, api/puzzle, api/count, api/limits,
 * api/palette, api/daily, api/library/tours/{id} and api/render/{svg,png,gif}. Numbers mode
 * (number puzzles) is numbers.js's: this file leaves the page to it while its tab is on.
 *
 * Boards up to DETAIL_MAX files and ranks are drawn in SVG, a square an element (numbers, counts,
 * highlights, spoken labels). Bigger flat boards are drawn on a canvas (a 100x100 tour in a few
 * milliseconds where the SVG's 20,000 elements took half a second), keyboard and speech kept:
 * the canvas takes the arrow keys and a live region says the square under the cursor.
 *
 * The page's state is in its address (#mode=puzzle&board=5x5&moves=a1,c2,...: a link
 * reproduces a game or a tour) and, for coming back, in localStorage (the game with its timer
 * and counts, best times, the theme).
 */
"use strict";

(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const S = 40;            // square size in SVG units
  let LEFT = 24;           // room for rank labels (set by drawBoard)
  let BOTTOM = 22;         // room for file labels
  let RIGHT = 0;           // room for the sums of the ranks (when shown)
  let rankSums = [], fileSums = [];  // their texts
  let LABEL = 13;          // label font size
  let TITLE = 0;           // room for the layer titles over a 3-D board's layers
  let GAPX = 0;            // room between two layers side by side
  let COLS = 1;            // layers side by side (a 3-D board wraps them into rows)
  const MIN_SQUARE_PX = 26;  // a 3-D board puts fewer layers in a row rather than go smaller
  const PAD = 3;
  const SPEEDS = [1, 2, 4, 8, 16, 32, 64, 128, 256];  // moves per second
  const DETAIL_MAX = 30;   // show numbers and counts on boards up to this many files and ranks
  const PLAY_ICON = "M4 2.5v11l10-5.5z";
  const PAUSE_ICON = "M3 2.5h3.5v11H3zM9.5 2.5H13v11H9.5z";
  const KNIGHT = [[2, 1], [1, 2], [-1, 2], [-2, 1], [-2, -1], [-1, -2], [1, -2], [2, -1]];

  const $ = (id) => document.getElementById(id);
  const LEVELS = {
    easy: { highlight: true, undo: true, hints: true,
      note: "Easy: the legal next squares are shown; undo and hints allowed." },
    medium: { highlight: false, undo: true, hints: false,
      note: "Medium: no highlighted squares, onward counts or hints; undo allowed." },
    hard: { highlight: false, undo: false, hints: false,
      note: "Hard: no highlighted squares, onward counts, undo or hints." },
  };
  const TOUR_SECONDS = 20;  // the default playback shows a whole tour in about this long
  const STORE = { game: "knightstour.game", best: "knightstour.best", theme: "knightstour.theme" };
  const store = {
    get(key) { try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; } },
    set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* off */ } },
  };

  // -- the path's colours: knightstour.render.style's, served by api/palette ------------------

  const palette = {
    colors: null,
    gradient: ["#1f3c99", "#6f2ea3", "#c0265d", "#e8620c"],
    maxBands: 64,
  };
  function hexRgb(c) {
    let h = c.replace("#", "");
    if (h.length === 3) h = h.split("").map((ch) => ch + ch).join("");
    return [0, 2, 4].map((k) => parseInt(h.slice(k, k + 2), 16));
  }
  // Python's round (halves to even), so that a colour here is the picture's to the digit
  function pyRound(x) {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  function ramp(stops, t) {  // style.ramp
    if (stops.length === 1) return stops[0];
    t = Math.min(Math.max(t, 0), 1) * (stops.length - 1);
    const i = Math.min(Math.floor(t), stops.length - 2), f = t - i;
    const a = hexRgb(stops[i]), b = hexRgb(stops[i + 1]);
    return "#" + a.map((u, k) => pyRound(u + (b[k] - u) * f).toString(16).padStart(2, "0")).join("");
  }
  let bandCache = { moves: -1, n: 0, colours: [] };
  // The colour of move k (0-based) of a path of `moves` moves: style.bands and band_colors
  function moveColor(k, moves) {
    if (bandCache.moves !== moves) {
      const n = Math.min(moves, palette.maxBands), colours = [];
      for (let b = 0; b < n; b++) colours.push(ramp(palette.gradient, n > 1 ? b / (n - 1) : 0));
      bandCache = { moves, n, colours };
    }
    return bandCache.colours[Math.floor((k * bandCache.n) / moves)];
  }
  function applyPalette(p) {
    if (!p || !p.colors) return;
    palette.colors = p.colors;
    palette.gradient = p.gradient;
    palette.maxBands = p.max_bands;
    bandCache = { moves: -1, n: 0, colours: [] };
    const root = document.documentElement.style;
    for (const name of ["light", "dark", "start", "end", "border"]) {
      if (p.colors[name]) root.setProperty(`--${name === "border" ? "board-border" : name}`, p.colors[name]);
    }
  }

  const state = {
    mode: "solve",
    W: 8,
    H: 8,
    D: 1,                // layers (a 3-D board when more than 1)
    limits: { max_squares: 10000, puzzle_max_squares: 400, gif_max_squares: 2500 },
    start: null,
    end: null,
    tour: null,          // the tour JSON from the API
    partial: null,       // square indices of a search that gave up (drawn, not downloadable)
    crossings: null,     // where the tour's moves cross, [x, y, k] (api/solve?metrics=true)
    order: null,         // tour square indices
    step: 0,             // squares of the tour shown (1..N)
    playing: false,
    lastFrame: 0,
    carry: 0,
    focus: 0,            // the square with tabindex 0
    puzzle: [],          // puzzle path (indices)
    verdict: null,       // the last /api/puzzle answer for the current puzzle path
    hint: null,
    checkSeq: 0,
    holes: new Set(),    // squares cut out of the board (clicked with "Click sets: hole")
    leaper: [1, 2],      // the piece's legs
    wrap: "",            // "", "cylinder" or "torus"
    canvas: false,       // a big flat board, drawn on the canvas
    view: null,          // puzzle: the moves shown while looking back (null: the game)
    game: { level: "easy", hints: 0, undos: 0, acc: 0, since: null, done: false, daily: null },
    restoring: true,     // applying a link or saved game: the address is not rewritten meanwhile
  };

  // The board's shape as query parameters (empty for the plain knight's board).
  function shapeParams() {
    const out = {};
    if (state.holes.size) out.holes = [...state.holes].sort((a, b) => a - b).map(nameOf).join(",");
    if (state.leaper[0] !== 1 || state.leaper[1] !== 2) out.leaper = state.leaper.join(",");
    if (state.wrap) out.wrap = state.wrap;
    return out;
  }
  const area = () => state.W * state.H * state.D;              // squares, holes included
  const squareCount = () => area() - state.holes.size;          // squares a tour visits
  const boardSpec = () => `${state.W}x${state.H}` + (state.D > 1 ? `x${state.D}` : "");
  const xOf = (i) => i % state.W;
  const yOf = (i) => Math.floor(i / state.W) % state.H;
  const zOf = (i) => Math.floor(i / (state.W * state.H));
  const at = (x, y, z) => (z * state.H + y) * state.W + x;

  // -- squares and names ----------------------------------------------------------------------

  function fileName(x) {
    let n = x + 1, out = "";
    while (n > 0) {
      const r = (n - 1) % 26;
      out = String.fromCharCode(97 + r) + out;
      n = Math.floor((n - 1) / 26);
    }
    return out;
  }
  const nameOf = (i) => fileName(xOf(i)) + (yOf(i) + 1) + (state.D > 1 ? `:${zOf(i) + 1}` : "");
  function parseName(name) {
    const m = /^([a-z]+)(\d+)(?::(\d+))?$/.exec(name);
    if (!m) return null;
    let x = 0;
    for (const ch of m[1]) x = x * 26 + (ch.charCodeAt(0) - 96);
    return at(x - 1, parseInt(m[2], 10) - 1, m[3] ? parseInt(m[3], 10) - 1 : 0);
  }

  let nbr = [];  // neighbour lists
  let deltas = KNIGHT.map(([dx, dy]) => [dx, dy, 0]);
  // The leaper's moves (dx, dy, dz), as the package's Board.deltas3: the flat moves in their
  // fixed order, then on a 3-D board the other permutations of (0, a, b) with every sign.
  function leaperDeltas() {
    const [a, b] = state.leaper, out = [];
    const add = (d) => {
      if (!(d[0] === 0 && d[1] === 0 && d[2] === 0) &&
          !out.some((q) => q[0] === d[0] && q[1] === d[1] && q[2] === d[2])) out.push(d);
    };
    for (const [dx, dy] of [[b, a], [a, b], [-a, b], [-b, a], [-b, -a], [-a, -b], [a, -b], [b, -a]]) {
      add([dx, dy, 0]);
    }
    if (state.D > 1) {
      for (const [p, q, r] of [[0, a, b], [0, b, a], [a, 0, b], [a, b, 0], [b, 0, a], [b, a, 0]]) {
        for (const sx of [1, -1]) for (const sy of [1, -1]) for (const sz of [1, -1]) add([sx * p, sy * q, sz * r]);
      }
    }
    return out;
  }
  function buildNeighbours() {
    const { W, H, D } = state;
    deltas = leaperDeltas();
    nbr = new Array(area());
    for (let i = 0; i < area(); i++) {
      const x = xOf(i), y = yOf(i), z = zOf(i), out = [];
      if (!state.holes.has(i)) {
        for (const [dx, dy, dz] of deltas) {
          let nx = x + dx, ny = y + dy;
          const nz = z + dz;
          if (state.wrap) nx = ((nx % W) + W) % W;
          if (state.wrap === "torus") ny = ((ny % H) + H) % H;
          if (nx < 0 || nx >= W || ny < 0 || ny >= H || nz < 0 || nz >= D) continue;
          const j = at(nx, ny, nz);
          if (j !== i && !state.holes.has(j) && !out.includes(j)) out.push(j);
        }
      }
      nbr[i] = out;
    }
  }
  // The step from a to b as drawn: the short way round on a wrapped board.
  function stepOf(a, b) {
    const { W, H } = state;
    let dx = xOf(b) - xOf(a), dy = yOf(b) - yOf(a);
    const legs = state.leaper[1];
    if (state.wrap && Math.abs(dx) > legs) dx -= Math.sign(dx) * W;
    if (state.wrap === "torus" && Math.abs(dy) > legs) dy -= Math.sign(dy) * H;
    return [dx, dy];
  }
  const isMove = (a, b) => nbr[a].includes(b);

  // -- drawing --------------------------------------------------------------------------------

  const svg = $("board");
  let cells = [], countTexts = [], numTexts = [], lines = [], layerTitles = [];
  let lineLayer, closeLine, knight, crossLayer;

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  // Where things are drawn. A 3-D board's layers stand in a row, layer 1 on the left, each
  // titled; on a narrow screen they wrap into rows of COLS layers.
  const ox = (z) => (z % COLS) * (LEFT + state.W * S + GAPX);
  const oy = (z) => Math.floor(z / COLS) * (TITLE + PAD + state.H * S + BOTTOM);
  const left = (x, z) => ox(z) + LEFT + x * S;                           // a square's corner
  const top = (y, z) => oy(z) + TITLE + PAD + (state.H - 1 - y) * S;
  const cx = (i) => left(xOf(i), zOf(i)) + S / 2;
  const cy = (i) => top(yOf(i), zOf(i)) + S / 2;
  const detailed = () => state.W <= DETAIL_MAX && state.H <= DETAIL_MAX;

  // Layers side by side: as many as fit with squares of at least MIN_SQUARE_PX, rows balanced.
  function layoutCols() {
    const D = state.D;
    if (D === 1) return 1;
    const tile = LEFT + state.W * S + GAPX;
    const avail = $("board-wrap").clientWidth || 800;
    const cols = Math.max(1, Math.min(D, Math.floor((avail * S) / (MIN_SQUARE_PX * tile))));
    return Math.ceil(D / Math.ceil(D / cols));
  }

  function drawBoard() {
    const { W, H, D } = state;
    buildNeighbours();
    state.canvas = D === 1 && !detailed() && renderer !== "svg";
    svg.toggleAttribute("hidden", state.canvas);  // an SVG element has no hidden property
    canvasEl.hidden = !state.canvas;
    if (state.canvas) {
      svg.textContent = "";
      cells = [];
      numTexts = [];
      countTexts = [];
      lines = [];
      layerTitles = [];
      rankSums = [];
      fileSums = [];
      lineLayer = el("g", {}, null);
      crossLayer = el("g", {}, null);
      knight = el("text", {}, null);
      state.focus = Math.min(state.focus, area() - 1);
      drawCanvasBoard();
      return;
    }
    LABEL = detailed() ? 13 : Math.max(13, Math.round(Math.max(W, H) * 0.55));
    LEFT = Math.ceil(String(H).length * LABEL * 0.62) + 9;
    BOTTOM = Math.ceil(LABEL * 1.35) + 4;
    TITLE = D > 1 ? Math.ceil(LABEL * 1.6) + 4 : 0;
    GAPX = D > 1 ? S / 2 : 0;
    COLS = layoutCols();
    const sums = $("show-sums").checked && D === 1;  // sums by rank and file: flat boards
    const widest = String((W * H * (W * H + 1)) / 2).length;
    RIGHT = sums ? Math.ceil(widest * LABEL * 0.62) + 10 : 0;
    const below = sums ? Math.ceil(LABEL * 1.35) : 0;
    const rowsOfLayers = Math.ceil(D / COLS);
    svg.textContent = "";
    svg.setAttribute("viewBox", `0 0 ${COLS * (LEFT + W * S + GAPX) - GAPX + PAD + RIGHT} ` +
      `${rowsOfLayers * (TITLE + PAD + H * S + BOTTOM) + below}`);
    svg.setAttribute("aria-label", D > 1 ? `Board, ${D} layers of ${W} files by ${H} ranks` :
      `Board, ${W} files by ${H} ranks`);
    svg.setAttribute("aria-rowcount", String(H * D));
    svg.setAttribute("aria-colcount", String(W));
    svg.classList.toggle("coarse", !detailed());
    svg.classList.toggle("layered", D > 1);
    svg.dataset.cols = String(COLS);
    const grid = el("g", { class: "cells" }, svg);
    cells = new Array(area());
    for (let z = 0; z < D; z++) {
      // each layer of a 3-D board is a group of rows named by its layer
      const layer = D > 1 ? el("g", {
        role: "rowgroup", "aria-label": `layer ${z + 1}`, "data-layer": String(z + 1),
      }, grid) : grid;
      for (let y = H - 1; y >= 0; y--) {
        const row = el("g", { role: "row" }, layer);
        for (let x = 0; x < W; x++) {
          const i = at(x, y, z);
          const g = el("g", {
            class: "sq", role: "gridcell", tabindex: "-1", "data-square": nameOf(i),
            "aria-rowindex": String(z * H + H - y), "aria-colindex": String(x + 1),
          }, row);
          if (state.holes.has(i)) g.classList.add("hole");
          el("rect", {
            class: "cell " + ((x + y + z) % 2 === 0 ? "dark" : "light"),
            x: left(x, z), y: top(y, z), width: S, height: S,
          }, g);
          g.addEventListener("click", () => activate(i));
          g.addEventListener("focus", () => { state.focus = i; });
          cells[i] = g;
        }
      }
    }
    const coords = el("g", { class: "coords", "aria-hidden": "true" }, svg);
    const every = Math.max(1, Math.ceil(Math.max(W, H) / 26));
    layerTitles = [];
    for (let z = 0; z < D; z++) {
      for (let x = 0; x < W; x += every) {
        el("text", { x: left(x, z) + S / 2, y: top(0, z) + S + LABEL * 1.2, "font-size": LABEL }, coords)
          .textContent = fileName(x);
      }
      for (let y = 0; y < H; y += every) {
        el("text", {
          x: ox(z) + LEFT - 5, y: top(y, z) + S / 2 + LABEL * 0.36, class: "rank", "font-size": LABEL,
        }, coords)
          .textContent = String(y + 1);
      }
      if (D > 1) {
        const t = el("text", {
          class: "layer-title", x: left(0, z) + (W * S) / 2, y: oy(z) + TITLE - 5,
          "font-size": Math.round(LABEL * 1.15), "data-layer": String(z + 1),
        }, coords);
        t.textContent = `layer ${z + 1}`;
        layerTitles.push(t);
      }
    }
    rankSums = [];
    fileSums = [];
    if (sums) {  // the sums of the move numbers: beside each rank, under each file
      const g = el("g", { class: "sums", "aria-hidden": "true" }, svg);
      for (let y = 0; y < H; y++) {
        rankSums.push(el("text", {
          x: LEFT + W * S + 6, y: PAD + (H - 1 - y) * S + S / 2 + LABEL * 0.36, "font-size": LABEL,
          "data-rank": String(y + 1),
        }, g));
      }
      for (let x = 0; x < W; x++) {
        fileSums.push(el("text", {
          x: LEFT + x * S + S / 2, y: PAD + H * S + LABEL * 2.5, "font-size": LABEL * 0.8,
          "data-file": fileName(x),
        }, g));
      }
    }
    const counts = el("g", { class: "counts", "aria-hidden": "true" }, svg);
    countTexts = new Array(area());
    lineLayer = el("g", { class: "lines", "aria-hidden": "true" }, svg);
    if (state.wrap && D === 1) {  // a move across the seam: two pieces, each cut at the board's edge
      const clip = el("clipPath", { id: "board-clip" }, el("defs", {}, svg));
      el("rect", { x: LEFT, y: PAD, width: W * S, height: H * S }, clip);
      lineLayer.setAttribute("clip-path", "url(#board-clip)");
    }
    crossLayer = el("g", { class: "crossings", "aria-hidden": "true" }, svg);
    lines = [];
    closeLine = null;
    const nums = el("g", { class: "nums", "aria-hidden": "true" }, svg);
    numTexts = new Array(area());
    if (detailed()) {
      for (let i = 0; i < area(); i++) {
        countTexts[i] = el("text", { x: cx(i) + S / 2 - 4, y: cy(i) + S / 2 - 4 }, counts);
        numTexts[i] = el("text", { x: cx(i), y: cy(i) + 5 }, nums);
      }
    }
    const marks = el("g", { class: "markers", "aria-hidden": "true" }, svg);
    knight = el("text", { class: "knight", visibility: "hidden" }, marks);
    knight.textContent = "\u265E";
    state.focus = Math.min(state.focus, area() - 1);
    cells[state.focus].setAttribute("tabindex", "0");
  }

  function setLines(order, count, closed) {
    // show the first count-1 moves of order (creating line elements as needed)
    if (state.canvas) return;  // the canvas draws its path in paint
    const n = order.length;
    while (lines.length < Math.min(count - 1, n - 1)) {
      const k = lines.length;
      lines.push(moveLine(order[k], order[k + 1], { stroke: moveColor(k, n - 1) }));
    }
    for (let k = 0; k < lines.length; k++) {
      lines[k].setAttribute("visibility", k < count - 1 ? "visible" : "hidden");
    }
    if (closeLine) { closeLine.remove(); closeLine = null; }
    if (closed && count === n && n > 2) {
      const a = order[n - 1], b = order[0];
      closeLine = moveLine(a, b, { class: "closing" });
    }
  }

  // A move's line; across a seam of a wrapped board, two lines (out to the edge, in from the
  // other), in one group; between the layers of a 3-D board, a hop (layerHop).
  function moveLine(a, b, attrs) {
    if (zOf(a) !== zOf(b)) return layerHop(a, b, attrs);
    const [dx, dy] = stepOf(a, b);
    const straight = cx(a) + dx * S === cx(b) && cy(a) - dy * S === cy(b);
    if (straight) return el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), ...attrs }, lineLayer);
    const g = el("g", { class: "split" }, lineLayer);
    el("line", { x1: cx(a), y1: cy(a), x2: cx(a) + dx * S, y2: cy(a) - dy * S, ...attrs }, g);
    el("line", { x1: cx(b) - dx * S, y1: cy(b) + dy * S, x2: cx(b), y2: cy(b), ...attrs }, g);
    return g;
  }

  // A move from one layer to another: in each of the two layers, a dashed stub from the square
  // towards the file and rank of the other square, ending in a disc numbered with the other
  // square's layer ("on to layer 3", "in from layer 1").
  function layerHop(a, b, attrs) {
    const g = el("g", { class: "hop" }, lineLayer);
    for (const [p, q] of [[a, b], [b, a]]) {
      const dx = xOf(q) - xOf(p), dy = yOf(p) - yOf(q), len = Math.hypot(dx, dy);
      const ex = cx(p) + (len ? (dx / len) * S * 0.36 : 0);
      const ey = cy(p) + (len ? (dy / len) * S * 0.36 : -S * 0.36);
      el("line", { x1: cx(p), y1: cy(p), x2: ex, y2: ey, ...attrs }, g);
      el("circle", { cx: ex, cy: ey, r: 6, ...(attrs.stroke ? { fill: attrs.stroke } : {}),
        ...(attrs.class ? { class: attrs.class } : {}) }, g);
      el("text", { x: ex, y: ey + 3.2 }, g).textContent = String(zOf(q) + 1);
    }
    return g;
  }

  function clearLines() {
    lineLayer.textContent = "";
    lines = [];
    closeLine = null;
  }

  function placeKnight(i) {
    if (i === null || i === undefined) { knight.setAttribute("visibility", "hidden"); return; }
    // in the square's top-left corner, small, so that the move number in its centre stays legible
    const numbered = $("show-numbers").checked && detailed();
    knight.style.fontSize = `${Math.round(S * (numbered ? 0.34 : 0.8))}px`;
    knight.setAttribute("x", numbered ? cx(i) - S * 0.34 : cx(i));
    knight.setAttribute("y", numbered ? cy(i) - S * 0.24 : cy(i) + S * 0.27);
    knight.setAttribute("visibility", "visible");
  }

  // The picture of a path: visited squares, numbers, lines, the knight, candidates and counts.
  // opts: highlight (the legal next squares), anchor (the knight's square when count is 0),
  // hint, startSq and endSq (outlined).
  function paint(order, count, opts) {
    if (state.canvas) { paintCanvas(order, count, opts); return; }
    const N = area();
    const visitedAt = new Int32Array(N);  // move number, 0 = unvisited
    for (let k = 0; k < count; k++) visitedAt[order[k]] = k + 1;
    const cur = count > 0 ? order[count - 1] : (opts.anchor ?? null);
    const showNums = $("show-numbers").checked && detailed();
    // the onward counts point at the legal moves and the best of them: a puzzle's level that
    // shows no squares and gives no hints shows no counts either
    const allowed = state.mode === "solve" || level().hints;
    $("show-counts").disabled = !allowed;
    const showCounts = $("show-counts").checked && detailed() && allowed;
    const cand = new Set();
    if (cur !== null && (count > 0 || opts.anchor !== undefined)) {
      for (const q of nbr[cur]) if (!visitedAt[q]) cand.add(q);
    }
    let best = Infinity;
    const onward = new Int32Array(N);
    for (let i = 0; i < N; i++) {
      if (visitedAt[i]) continue;
      let c = 0;
      for (const q of nbr[i]) if (!visitedAt[q] && q !== cur) c++;
      onward[i] = c;
      if (cand.has(i)) best = Math.min(best, c);
    }
    for (let i = 0; i < N; i++) {
      const g = cells[i];
      const v = visitedAt[i];
      g.classList.toggle("visited", v > 0);
      g.classList.toggle("current", count > 0 && i === cur);
      g.classList.toggle("cand", opts.highlight && cand.has(i));
      g.classList.toggle("best", showCounts && cand.has(i) && onward[i] === best);
      g.classList.toggle("hint", opts.hint === i);
      g.classList.toggle("is-start", i === opts.startSq);
      g.classList.toggle("is-end", i === opts.endSq);
      g.classList.toggle("unvisited", Boolean(opts.unvisited) && !v && !state.holes.has(i));
      if (numTexts[i]) {
        numTexts[i].textContent = showNums && v ? String(v) : "";
        countTexts[i].textContent = showCounts && !v ? String(onward[i]) : "";
        countTexts[i].classList.toggle("strong", cand.has(i));
      }
      let label = nameOf(i);
      if (state.D > 1) label += ` (layer ${zOf(i) + 1})`;
      if (state.holes.has(i)) label += ", hole";
      if (v) label += `, move ${v}`;
      if (count > 0 && i === cur) label += ", knight";
      if (i === opts.startSq) label += ", start";
      if (i === opts.endSq) label += ", end";
      if (opts.highlight && cand.has(i)) label += ", legal move";
      if (showCounts && !v) label += `, ${onward[i]} onward`;
      if (opts.hint === i) label += ", hint";
      if (opts.unvisited && !v) label += ", not visited";
      g.setAttribute("aria-label", label);
    }
    placeKnight(count > 0 ? cur : null);
    // the knight's layer (or the start's) has its title marked
    const here = cur === null ? null : zOf(cur);
    layerTitles.forEach((t, z) => t.classList.toggle("here", z === here));
    showSums(visitedAt, count);
    crossLayer.textContent = "";
    const r = Math.max(S * 0.09, 2);
    for (const [x, y] of crossingsShown(order, count, opts)) {
      el("circle", { cx: left(x, 0) + S / 2, cy: top(y, 0) + S / 2, r, class: "crossing" },
        crossLayer);
    }
  }

  // The crossings to mark (the toggle "Crossings"): those of the tour on the board whose two
  // moves are both drawn (the closing move once the tour is whole).
  function crossingsShown(order, count, opts) {
    if (!$("show-crossings").checked || !state.crossings || order !== state.order) return [];
    const drawn = count - 1 + (opts.closed && count === order.length ? 1 : 0);
    return state.crossings.filter((p) => p[2] <= drawn);
  }

  // The line under the board about the crossings: how many, or why none are marked.
  function showCrossingNote() {
    const note = $("crossing-note");
    if (!$("show-crossings").checked) { note.textContent = ""; return; }
    if (state.D > 1 || state.wrap) {
      note.textContent = "Crossings are defined on flat boards without wrapping.";
    } else if (state.mode !== "solve" || !state.tour) {
      note.textContent = "Crossings are marked on a tour solved here or opened from the library.";
    } else if (!state.crossings) {
      note.textContent = "This tour's crossings are not known here: solve it again to mark them.";
    } else {
      const n = state.crossings.length;
      note.textContent = `${n.toLocaleString("en")} crossing${n === 1 ? "" : "s"}: ` +
        "each marked once both its moves are drawn.";
    }
  }

  // The sums of the move numbers so far, by rank and file; the verdict once the tour is whole.
  function showSums(visitedAt, count) {
    const { W, H } = state, N = W * H;
    const line = $("magic-line");
    if (!rankSums.length) { line.textContent = ""; return; }
    const ranks = new Array(H).fill(0), files = new Array(W).fill(0);
    let main = 0, anti = 0;
    for (let i = 0; i < N; i++) {
      const v = visitedAt[i], x = i % W, y = Math.floor(i / W);
      ranks[y] += v;
      files[x] += v;
      if (W === H && x === y) main += v;
      if (W === H && x + y === W - 1) anti += v;
    }
    const total = (N * (N + 1)) / 2;
    const rankC = total % H === 0 ? total / H : null, fileC = total % W === 0 ? total / W : null;
    const whole = count === N;
    ranks.forEach((v, y) => {
      rankSums[y].textContent = String(v);
      rankSums[y].classList.toggle("on", whole && v === rankC);
    });
    files.forEach((v, x) => {
      fileSums[x].textContent = String(v);
      fileSums[x].classList.toggle("on", whole && v === fileC);
    });
    if (!whole) { line.textContent = ""; return; }
    const semi = rankC !== null && fileC !== null && ranks.every((v) => v === rankC) &&
      files.every((v) => v === fileC);
    const magic = semi && W === H && main === rankC && anti === rankC;
    const diag = W === H ? `; diagonals ${main} and ${anti}` : "";
    const want = rankC === fileC ? `${rankC}` :
      `${rankC ?? "none"} (ranks), ${fileC ?? "none"} (files)`;
    line.textContent = magic ? `Magic: every rank, file and long diagonal adds up to ${rankC}.` :
      semi ? `Semi-magic: every rank and file adds up to ${want}${diag}.` :
      `Neither magic nor semi-magic: the lines should add up to ${want}${diag}.`;
  }

  // -- big boards on a canvas ----------------------------------------------------------------

  const canvasEl = $("board-canvas");
  const renderer = new URLSearchParams(location.search).get("renderer");  // "svg": no canvas
  let base = null;          // the empty board, drawn once a size (an offscreen canvas)
  let view = { W: 0, H: 0, scale: 1, dpr: 1 };
  let painted = null;       // what paintCanvas drew last (redrawn on resize and focus)

  // The canvas's size in CSS pixels: the page's width, the board's proportions, at most 70% of
  // the window's height (as the SVG).
  function canvasSize() {
    const { W, H } = state;
    const vw = LEFT + W * S + PAD + RIGHT, vh = PAD + H * S + BOTTOM;
    const avail = $("board-wrap").clientWidth - 8 || 800;
    const most = Math.max(200, window.innerHeight * 0.7);
    const scale = Math.min(avail / vw, most / vh);
    return { vw, vh, scale };
  }

  function drawCanvasBoard() {
    const { W, H } = state;
    LABEL = Math.max(13, Math.round(Math.max(W, H) * 0.55));
    LEFT = Math.ceil(String(H).length * LABEL * 0.62) + 9;
    BOTTOM = Math.ceil(LABEL * 1.35) + 4;
    TITLE = 0; GAPX = 0; COLS = 1; RIGHT = 0;
    const { vw, vh, scale } = canvasSize();
    const dpr = window.devicePixelRatio || 1;
    view = { W: vw, H: vh, scale, dpr };
    canvasEl.style.width = `${Math.round(vw * scale)}px`;
    canvasEl.style.height = `${Math.round(vh * scale)}px`;
    canvasEl.width = Math.round(vw * scale * dpr);
    canvasEl.height = Math.round(vh * scale * dpr);
    canvasEl.setAttribute("aria-label", `Board, ${W} files by ${H} ranks (a picture; the ` +
      `arrow keys move a cursor, Enter picks the square)`);
    base = document.createElement("canvas");
    base.width = canvasEl.width;
    base.height = canvasEl.height;
    const g = base.getContext("2d");
    g.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
    g.fillStyle = cssColour("--light", "#f2f0eb");
    g.fillRect(LEFT, PAD, W * S, H * S);
    g.fillStyle = cssColour("--dark", "#cdd4dc");
    for (let y = 0; y < H; y++) {
      for (let x = (y % 2 === 0 ? 0 : 1); x < W; x += 2) g.fillRect(left(x, 0), top(y, 0), S, S);
    }
    if (state.holes.size) {
      g.fillStyle = cssColour("--bg", "#ffffff");
      for (const i of state.holes) g.fillRect(left(xOf(i), 0), top(yOf(i), 0), S, S);
    }
    g.fillStyle = cssColour("--muted", "#57606a");
    g.font = `${LABEL}px system-ui, sans-serif`;
    g.textAlign = "center";
    const every = Math.max(1, Math.ceil(Math.max(W, H) / 26));
    for (let x = 0; x < W; x += every) g.fillText(fileName(x), left(x, 0) + S / 2, top(0, 0) + S + LABEL * 1.2);
    g.textAlign = "right";
    for (let y = 0; y < H; y += every) g.fillText(String(y + 1), LEFT - 5, top(y, 0) + S / 2 + LABEL * 0.36);
  }

  function squareLabel(i) {
    let label = nameOf(i);
    if (state.holes.has(i)) label += ", hole";
    if (painted) {
      const k = painted.order.indexOf(i);
      if (k >= 0 && k < painted.count) label += `, move ${k + 1}`;
      if (i === painted.opts.startSq) label += ", start";
      if (i === painted.opts.endSq) label += ", end";
    }
    return label;
  }

  // The canvas's picture of a path: the board, the first count-1 moves in the palette's
  // colours (one stroke a colour band), the closing move, the start, the end, the knight,
  // the legal next squares and the keyboard's cursor.
  function paintCanvas(order, count, opts) {
    painted = { order, count, opts };
    const ctx = canvasEl.getContext("2d");
    const { scale, dpr } = view;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvasEl.width, canvasEl.height);
    ctx.drawImage(base, 0, 0);
    ctx.setTransform(scale * dpr, 0, 0, scale * dpr, 0, 0);
    const thin = Math.max(S * 0.14, 1.1 / scale);
    if (opts.unvisited) {  // a search that gave up: the squares it never reached
      const seen = new Uint8Array(area());
      for (let k = 0; k < count; k++) seen[order[k]] = 1;
      ctx.fillStyle = "rgba(240, 168, 48, 0.45)";
      for (let i = 0; i < area(); i++) {
        if (!seen[i] && !state.holes.has(i)) ctx.fillRect(left(xOf(i), 0), top(yOf(i), 0), S, S);
      }
    }
    const moves = order.length - 1;
    const cur = count > 0 ? order[count - 1] : (opts.anchor ?? null);
    if (opts.highlight && cur !== null) {
      const seen = new Set(order.slice(0, count));
      ctx.fillStyle = cssColour("--cand", "#f6d365");
      for (const q of nbr[cur]) if (!seen.has(q)) ctx.fillRect(left(xOf(q), 0), top(yOf(q), 0), S, S);
    }
    ctx.lineWidth = thin;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    let colour = null;
    for (let k = 0; k < count - 1; k++) {
      const c = moveColor(k, moves);
      if (c !== colour) {
        if (colour !== null) ctx.stroke();
        colour = c;
        ctx.strokeStyle = c;
        ctx.beginPath();
        ctx.moveTo(cx(order[k]), cy(order[k]));
      }
      const a = order[k], b = order[k + 1];
      const [dx, dy] = stepOf(a, b);
      if (cx(a) + dx * S === cx(b) && cy(a) - dy * S === cy(b)) {
        ctx.lineTo(cx(b), cy(b));
      } else {  // across a seam: out to the edge, in from the other
        ctx.lineTo(cx(a) + dx * S, cy(a) - dy * S);
        ctx.moveTo(cx(b) - dx * S, cy(b) + dy * S);
        ctx.lineTo(cx(b), cy(b));
      }
    }
    if (colour !== null) ctx.stroke();
    if (opts.closed && count === order.length && order.length > 2) {
      ctx.save();
      ctx.setLineDash([S * 0.3, S * 0.25]);
      ctx.strokeStyle = palette.colors ? palette.colors.path : "#1d4e89";
      ctx.beginPath();
      ctx.moveTo(cx(order[order.length - 1]), cy(order[order.length - 1]));
      ctx.lineTo(cx(order[0]), cy(order[0]));
      ctx.stroke();
      ctx.restore();
    }
    const marks = crossingsShown(order, count, opts);
    if (marks.length) {
      ctx.fillStyle = cssColour("--crossing", "#d81b60");
      const rc = Math.max(S * 0.09, 1.5 / scale);
      for (const [x, y] of marks) {
        ctx.beginPath();
        ctx.arc(left(x, 0) + S / 2, top(y, 0) + S / 2, rc, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    const r = Math.max(S * 0.32, 3 / scale);
    const edge = palette.colors ? palette.colors["marker-edge"] : "#ffffff";
    if (opts.startSq !== null && opts.startSq !== undefined) {
      ctx.fillStyle = palette.colors ? palette.colors.start : "#1e8c45";
      ctx.beginPath();
      ctx.arc(cx(opts.startSq), cy(opts.startSq), r, 0, 2 * Math.PI);
      ctx.fill();
      ctx.lineWidth = r * 0.3; ctx.strokeStyle = edge; ctx.stroke();
    }
    if (opts.endSq !== null && opts.endSq !== undefined) {
      ctx.fillStyle = palette.colors ? palette.colors.end : "#c62828";
      ctx.fillRect(cx(opts.endSq) - r, cy(opts.endSq) - r, 2 * r, 2 * r);
    }
    if (count > 0 && count < order.length) {  // the knight: a ring on its square
      ctx.lineWidth = Math.max(S * 0.12, 1.5 / scale);
      ctx.strokeStyle = palette.colors ? palette.colors.knight : "#111111";
      ctx.beginPath();
      ctx.arc(cx(cur), cy(cur), r * 1.3, 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (document.activeElement === canvasEl) {  // the keyboard's cursor
      ctx.lineWidth = Math.max(S * 0.1, 2 / scale);
      ctx.strokeStyle = "#000";
      ctx.setLineDash([S * 0.2, S * 0.12]);
      const f = state.focus;
      ctx.strokeRect(left(xOf(f), 0), top(yOf(f), 0), S, S);
      ctx.setLineDash([]);
    }
    const n = order.length;
    canvasEl.dataset.moves = String(Math.max(0, count - 1));
    canvasEl.dataset.squares = String(n);
  }

  // the square under a click on the canvas
  canvasEl.addEventListener("click", (ev) => {
    const rect = canvasEl.getBoundingClientRect();
    const ux = (ev.clientX - rect.left) / view.scale, uy = (ev.clientY - rect.top) / view.scale;
    const x = Math.floor((ux - LEFT) / S), y = state.H - 1 - Math.floor((uy - PAD) / S);
    if (x < 0 || x >= state.W || y < 0 || y >= state.H) return;
    activate(at(x, y, 0));
  });
  canvasEl.addEventListener("focus", () => { if (state.canvas) redraw(); });
  canvasEl.addEventListener("blur", () => { if (state.canvas) redraw(); });

  // -- solve mode -----------------------------------------------------------------------------

  function showSolve() {
    const t = state.tour;
    if (!t && state.partial) {  // a search that gave up: how far it got, the rest marked
      const p = state.partial, n = p.length;
      clearLines();
      setLines(p, n, false);
      paint(p, n, { highlight: false, startSq: p[0], unvisited: true });
      $("move-label").textContent = `Gave up after ${n} of ${squareCount()} squares`;
      return;
    }
    if (!t) {
      clearLines();
      paint([], 0, {
        anchor: state.start ?? undefined, highlight: state.start !== null,
        startSq: state.start, endSq: state.end,
      });
      $("move-label").textContent = "No tour yet";
      return;
    }
    const n = state.order.length;
    setLines(state.order, state.step, t.closed);
    paint(state.order, state.step, {
      highlight: state.step < n, startSq: state.order[0],
      endSq: state.step === n ? state.order[n - 1] : state.end, closed: t.closed,
    });
    $("move-label").textContent = `Move ${state.step} of ${n}`;
    const prog = $("progress");
    prog.max = String(n);
    prog.value = String(state.step);
    prog.setAttribute("aria-valuetext", `move ${state.step} of ${n}, ${nameOf(state.order[state.step - 1])}`);
  }

  function setStep(k) {
    if (!state.order) return;
    state.step = Math.max(1, Math.min(state.order.length, k));
    if (state.step === state.order.length) setPlaying(false);
    showSolve();
  }

  function setPlaying(on) {
    on = Boolean(on && state.order);
    if (on && state.step >= state.order.length) state.step = 1;
    state.playing = on;
    const b = $("btn-play");
    b.setAttribute("aria-pressed", String(on));
    b.setAttribute("aria-label", on ? "Pause" : "Play");
    b.querySelector("path").setAttribute("d", on ? PAUSE_ICON : PLAY_ICON);
    if (on) {
      state.lastFrame = performance.now();
      state.carry = 0;
      requestAnimationFrame(tick);
    }
  }

  function tick(now) {
    if (!state.playing) return;
    const speed = movesPerSecond();
    state.carry += ((now - state.lastFrame) / 1000) * speed;
    state.lastFrame = now;
    if (state.carry >= 1) {
      const k = Math.floor(state.carry);
      state.carry -= k;
      setStep(state.step + k);
    }
    if (state.playing) requestAnimationFrame(tick);
  }

  // Moves a second: the slider's, or (by default) the tour's length over TOUR_SECONDS.
  function movesPerSecond() {
    if ($("auto-speed").checked && state.order) {
      return Math.max(1, (state.order.length - 1) / TOUR_SECONDS);
    }
    return SPEEDS[+$("speed").value];
  }

  function showSpeed() {
    $("speed-out").textContent = $("auto-speed").checked ?
      (state.order ? `${Math.round(movesPerSecond())} moves/s` : "auto") :
      `${SPEEDS[+$("speed").value]} moves/s`;
  }

  // Draw, and note in the page how long it took until the next frame was on screen
  // (body[data-draw-ms]: the browser tests read it).
  function timedDraw(draw) {
    const t0 = performance.now();
    draw();
    const js = performance.now() - t0;
    document.body.dataset.drawMs = "";
    requestAnimationFrame(() => setTimeout(() => {
      document.body.dataset.drawMs = String(Math.round(performance.now() - t0));
      document.body.dataset.drawJsMs = String(Math.round(js));
    }, 0));
  }

  function status(text, kind) {
    const s = $("status");
    s.textContent = text;
    s.className = "status" + (kind ? " " + kind : "");
  }

  function forgetTour() {
    setPlaying(false);
    state.tour = null;
    state.partial = null;
    state.crossings = null;
    state.order = null;
    state.step = 0;
    $("progress").disabled = true;
    for (const b of document.querySelectorAll(".dl")) b.disabled = true;
  }

  // A refused size: say why, and take the old tour off the board (it is not of this size).
  // A size refused: nothing of the old board stays on screen (docs/web.md): its picture, its
  // start and end squares and its number of tours go; a valid size draws the board again.
  function refuseSize(message) {
    status(message, "error");
    forgetTour();
    state.refused = true;
    state.start = state.end = null;
    $("start-out").textContent = "any";
    $("end-out").textContent = "any";
    svg.toggleAttribute("hidden", true);
    canvasEl.hidden = true;
    counting.key = null;  // the count line is asked again once a size is drawn
    counting.seq++;
    if (counting.abort) counting.abort.abort();
    clearTimeout(counting.timer);
    countLine("");
    if (state.mode === "solve") showSolve();
    return false;
  }

  function readSize() {
    const wText = $("width").value.trim(), hText = $("height").value.trim();
    const dText = $("depth").value.trim() || "1";
    const w = Number(wText), h = Number(hText), d = Number(dText);
    if (!(/^\d+$/.test(wText) && /^\d+$/.test(hText) && w >= 1 && h >= 1)) {
      return refuseSize("Width and height must be whole numbers of at least 1.");
    }
    if (!(/^\d+$/.test(dText) && d >= 1)) {
      return refuseSize("Layers must be a whole number of at least 1 (1: a flat board).");
    }
    const side = +$("width").max || 100;
    if (w > side || h > side) {
      return refuseSize(`Width and height are at most ${side} (this is ${w}x${h}).`);
    }
    const layers = +$("depth").max || 16;
    if (d > layers) {
      return refuseSize(`Layers are at most ${layers} (this is ${d}).`);
    }
    const cap = state.mode === "puzzle" ? state.limits.puzzle_max_squares : state.limits.max_squares;
    const spec = `${w}x${h}` + (d > 1 ? `x${d}` : "");
    if (w * h * d > cap) {
      return refuseSize(`A ${spec} board has ${w * h * d} squares; the ${state.mode === "puzzle" ? "puzzle" : "web board"} takes at most ${cap}.`);
    }
    if (state.refused || w !== state.W || h !== state.H || d !== state.D) {
      state.refused = false;
      state.W = w; state.H = h; state.D = d;
      syncPreset();
      $("show-sums").disabled = d > 1;  // sums by rank and file: a flat board's
      state.start = state.end = null;
      state.holes = new Set();
      $("holes-out").textContent = "none";
      // a new board: the next click sets the start again
      document.querySelector('input[name="clicksets"][value="start"]').checked = true;
      state.focus = 0;
      forgetTour();
      state.puzzle = [];
      state.verdict = null;
      state.hint = null;
      drawBoard();
    }
    return true;
  }

  function toggleHole(i) {
    if (state.holes.has(i)) state.holes.delete(i);
    else if (state.holes.size + 1 < area()) state.holes.add(i);
    if (state.start === i) state.start = null;
    if (state.end === i) state.end = null;
    reshape();
  }

  // The shape changed (holes, piece, wrap): a new board, the tour forgotten.
  function reshape() {
    forgetTour();
    state.puzzle = [];
    state.verdict = null;
    state.hint = null;
    drawBoard();
    $("holes-out").textContent = state.holes.size ? shapeParams().holes : "none";
    showEnds();
    if (state.mode === "puzzle") restart(); else showSolve();
  }

  function showEnds() {
    $("start-out").textContent = state.start === null ? "any" : nameOf(state.start);
    $("end-out").textContent = state.end === null ? "any" : nameOf(state.end);
    updateCount();
    if (state.mode === "solve") saveState();
  }

  // -- the number of tours --------------------------------------------------------------------

  const counting = { key: null, seq: 0, abort: null, timer: 0 };
  const withCommas = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

  function countLine(text, kind, title) {
    const p = $("count-line");
    p.textContent = text;
    p.className = "count-line" + (kind ? " " + kind : "");
    p.title = title || "";
  }

  // The number of tours of the board and mode shown (asked again only when they change):
  // closed tours each counted once (as the tables of closed tours do), open tours in both
  // directions (as OEIS A165134 does); the line says which.
  async function updateCount() {
    const puzzle = state.mode === "puzzle";
    const closed = puzzle ? $("challenge").checked : $("closed").checked;
    const params = {
      board: boardSpec(),
      closed: closed ? "true" : "false",
      start: puzzle || state.start === null ? "" : nameOf(state.start),
      end: puzzle || state.end === null ? "" : nameOf(state.end),
      directed: closed ? "false" : "true",
      ...shapeParams(),  // holes and piece; a wrapped or 3-D board gets the counting's reason
    };
    const key = JSON.stringify(params);
    if (key === counting.key) return;
    counting.key = key;
    const seq = ++counting.seq;
    if (counting.abort) counting.abort.abort();  // the server drops a count nobody waits for
    counting.abort = new AbortController();
    clearTimeout(counting.timer);
    countLine("");
    counting.timer = setTimeout(() => {
      if (seq === counting.seq) countLine("Counting the tours\u2026", "busy");
    }, 300);
    let data = null;
    try {
      data = await api("api/count", params, { signal: counting.abort.signal });
    } catch (e) {
      data = null;
    }
    if (seq !== counting.seq) return;  // the board or the mode changed meanwhile
    clearTimeout(counting.timer);
    if (!data) {
      countLine("");
      counting.key = null;  // ask again next time
    } else if (data.known) {
      countLine(`${withCommas(data.count_text)} ${data.convention}.`, "known",
        data.source === "theory" ? data.reason : "");
    } else if (data.published) {
      // a figure from the literature, never taken for a count made here: labelled, with its
      // source (the whole board's when the count asked names a square)
      const p = data.published;
      const figure = `${withCommas(p.value_text)} ${p.convention} \u2014 published: ${p.source}`;
      const first = data.convention.charAt(0).toUpperCase() + data.convention.slice(1);
      countLine(p.convention === data.convention ? `${figure}; not counted here.` :
        `${first}: not counted here. Published for the whole board: ${figure}.`,
        "known published", data.reason);
    } else {
      countLine(`Number of tours: not counted here; ${data.reason}.`, "", data.reason);
    }
  }

  function pickSolveSquare(i) {
    const which = document.querySelector('input[name="clicksets"]:checked').value;
    if (which === "hole") { toggleHole(i); return; }
    if (state.holes.has(i)) { status(`${nameOf(i)} is a hole: click sets hole to put it back.`, "error"); return; }
    if (which === "start") {
      state.start = state.start === i ? null : i;
      if (state.start !== null) document.querySelector('input[name="clicksets"][value="end"]').checked = true;
    } else {
      state.end = state.end === i ? null : i;
    }
    if (state.start !== null && state.start === state.end) state.end = null;
    forgetTour();
    showEnds();
    status(state.start === null ? "Start: any square." :
      `Start ${nameOf(state.start)}` + (state.end === null ? "" : `, end ${nameOf(state.end)}`) + ". Press Solve.");
    showSolve();
  }

  async function api(path, params, init) {
    const url = path + (params ? "?" + new URLSearchParams(params) : "");
    const r = await fetch(url, init);
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
    if (!r.ok) throw new Error(data && data.error ? data.error : `HTTP ${r.status}`);
    return data;
  }

  async function solve() {
    if (!readSize()) return;
    const params = {
      board: boardSpec(),
      start: state.start === null ? "" : nameOf(state.start),
      end: state.end === null ? "" : nameOf(state.end),
      closed: $("closed").checked ? "true" : "false",
      method: $("method").value,
      tiebreak: $("tiebreak").value,
      seed: $("seed").value.trim(),
      ...shapeParams(),
    };
    if (state.D === 1 && !state.wrap) params.metrics = "true";  // the crossings to mark
    forgetTour();
    showSolve();
    status("Solving\u2026", "busy");
    $("btn-solve").disabled = true;
    const t0 = performance.now();
    try {
      const data = await api("api/solve", params);
      const ms = Math.round(performance.now() - t0);
      if (data.path) {
        const n = data.path.length;
        loadTour(data, `${data.closed ? "Closed" : "Open"} tour of ${n} squares from ` +
          `${data.path[0]} to ${data.path[n - 1]} (${data.method}, ${ms} ms).`);
        const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        state.step = reduce ? n : 1;
        timedDraw(showSolve);
        saveState();
        if (!reduce && n > 1) setPlaying(true);
      } else if (data.exists === false) {
        status(`No tour: ${data.reason}`, "no");
      } else if (data.partial && data.partial.path.length) {
        state.partial = data.partial.path.map(parseName);
        const n = state.partial.length, N = squareCount();
        status(`Gave up after ${n} of ${N} squares (the path so far is drawn; the ${N - n} ` +
          `squares not reached are marked): ${data.reason}`, "no");
        showSolve();
      } else {
        status(`Gave up: ${data.reason}`, "no");
      }
    } catch (e) {
      status(`Error: ${e.message}`, "error");
    } finally {
      $("btn-solve").disabled = false;
    }
  }

  function currentTourJSON() {
    if (state.mode === "puzzle") {
      const v = state.verdict;
      if (!v || v.status !== "won") return null;
      const closed = $("challenge").checked;
      return {
        width: state.W, height: state.H, ...shapeFields(), closed, method: "puzzle",
        path: state.puzzle.map(nameOf),
        xy: state.puzzle.map((i) => (state.D > 1 ? [xOf(i), yOf(i), zOf(i)] : [xOf(i), yOf(i)])),
      };
    }
    return state.tour;
  }

  function shapeFields() {  // the tour JSON's optional board fields
    const p = shapeParams(), out = {};
    if (state.D > 1) out.depth = state.D;
    if (p.holes) out.holes = p.holes.split(",");
    if (p.leaper) out.leaper = state.leaper.slice();
    if (p.wrap) out.wrap = p.wrap;
    return out;
  }

  function saveBlob(blob, filename) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  async function download(fmt) {
    const t = currentTourJSON();
    if (!t) return;
    const spec = `${t.width}x${t.height}` + (t.depth ? `x${t.depth}` : "");
    const filename = `tour-${spec}-${t.path[0].replace(":", "-")}.${fmt}`;
    if (fmt === "json") {
      saveBlob(new Blob([JSON.stringify(t)], { type: "application/json" }), filename);
      return;
    }
    status(`Drawing the ${fmt.toUpperCase()}\u2026`, "busy");
    try {
      const numbers = $("show-numbers").checked && detailed() ? "true" : "false";
      const r = await fetch(`api/render/${fmt}?numbers=${numbers}`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(t),
      });
      if (!r.ok) {
        let msg = `HTTP ${r.status}`;
        try { msg = (await r.json()).error || msg; } catch (e) { /* not JSON */ }
        throw new Error(msg);
      }
      saveBlob(await r.blob(), filename);
      status(`Saved ${filename}.`, "ok");
    } catch (e) {
      status(`Could not draw the ${fmt.toUpperCase()}: ${e.message}`, "error");
    }
  }

  // -- puzzle mode: the game ------------------------------------------------------------------

  function puzzleMsg(text, kind) {
    const p = $("puzzle-msg");
    p.textContent = text;
    p.className = "puzzle-msg" + (kind ? " " + kind : "");
  }

  const level = () => LEVELS[state.game.level];
  // the squares undo cannot take back: the daily puzzle's start is the puzzle's, not a move
  const given = () => (state.game.daily ? 1 : 0);
  const gameKind = () => `${boardSpec()}${shapeSuffix()} ${state.game.level} ` +
    ($("challenge").checked ? "closed" : "open");
  function shapeSuffix() {
    const p = shapeParams();
    return (p.holes ? ` holes=${p.holes}` : "") + (p.leaper ? ` leaper=${p.leaper}` : "") +
      (p.wrap ? ` wrap=${p.wrap}` : "");
  }

  function legalNext() {
    const p = state.puzzle;
    if (!p.length) return null;  // any square
    const seen = new Set(p);
    return nbr[p[p.length - 1]].filter((q) => !seen.has(q));
  }

  // -- the clock: it runs from the first move to the win, and not while the page is closed
  const elapsed = () => state.game.acc + (state.game.since === null ? 0 : Date.now() - state.game.since);
  function clockText(ms) {
    const t = Math.floor(ms / 1000), h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60);
    const sec = String(t % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
  }
  function startClock() {
    if (state.game.since === null && !state.game.done) state.game.since = Date.now();
  }
  function stopClock() {
    if (state.game.since !== null) {
      state.game.acc += Date.now() - state.game.since;
      state.game.since = null;
    }
  }
  function showStats() {
    $("timer").textContent = clockText(elapsed());
    $("hint-count").textContent = String(state.game.hints);
    $("undo-count").textContent = String(state.game.undos);
  }
  setInterval(() => {
    if (state.mode === "puzzle" && state.game.since !== null) showStats();
  }, 500);

  // -- the move list: "1. a1", "2. c2", ...; a click shows the board as it was then
  function showMoveList() {
    const list = $("move-list"), p = state.puzzle;
    while (list.children.length > p.length) list.lastChild.remove();
    for (let k = 0; k < p.length; k++) {
      let li = list.children[k];
      if (!li) {
        li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.className = "small";
        b.dataset.move = String(k + 1);
        b.addEventListener("click", () => lookBack(k + 1));
        li.appendChild(b);
        list.appendChild(li);
      }
      const b = li.firstChild, text = `${k + 1}. ${nameOf(p[k])}`;
      if (b.textContent !== text) {
        b.textContent = text;
        b.setAttribute("aria-label", `move ${k + 1}, ${nameOf(p[k])}: show the board then`);
      }
      if (state.view === k + 1) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    }
    $("btn-back-to-game").hidden = state.view === null;
    document.body.dataset.lookingBack = String(state.view !== null);
  }

  function lookBack(k) {
    if (k >= state.puzzle.length) { backToGame(); return; }
    state.view = k;
    showPuzzle();
    puzzleMsg(`Looking back: the board after move ${k} (${nameOf(state.puzzle[k - 1])}) of ` +
      `${state.puzzle.length}. Back to the game to go on.`, "");
  }
  function backToGame() {
    if (state.view === null) return;
    state.view = null;
    showPuzzle();
    sayVerdict(state.verdict);
  }

  function showPuzzle() {
    const p = state.puzzle;
    const shown = state.view === null ? p.length : state.view;
    clearLines();
    setLines(p, shown, false);
    const won = state.verdict && state.verdict.status === "won";
    if (won && shown === p.length && $("challenge").checked) setLines(p, p.length, true);
    paint(p, shown, {
      highlight: level().highlight && state.view === null, hint: state.hint,
      startSq: p.length ? p[0] : null,
    });
    const N = squareCount();
    $("move-label").textContent = state.view !== null ? `Move ${shown} of ${p.length} (looking back)` :
      p.length ? `Square ${p.length} of ${N}` : `0 of ${N} squares`;
    $("btn-undo").disabled = p.length <= given() || !level().undo || state.game.done;
    $("btn-hint").disabled = !level().hints || state.game.done;
    $("level-note").textContent = level().note;
    showMoveList();
    showStats();
    updateCount();
    for (const b of document.querySelectorAll(".dl")) {
      b.disabled = !won || (b.dataset.format === "gif" && N > state.limits.gif_max_squares);
    }
    saveState();
  }

  function sayVerdict(v) {
    const n = state.puzzle.length, N = squareCount();
    if (!v) return;
    if (v.status === "won" && state.game.replay) {
      puzzleMsg(`A shared game, won: a ${v.closed ? "closed " : ""}tour of all ${N} squares.`, "win");
    } else if (v.status === "won") {
      puzzleMsg(`You win! A ${v.closed ? "closed " : ""}tour of all ${N} squares.`, "win");
    } else if (v.status === "lost" || v.status === "stuck") {
      puzzleMsg(`This position is lost: ${v.reason}. ` +
        (level().undo ? "Undo and try another move." : "No undo at this level: Restart."), "lost");
    } else if (v.status === "unknown") {
      puzzleMsg(v.reason + ".", "");
    } else if (n === 0) {
      puzzleMsg("Click any square to place the knight.", "");
    } else {
      puzzleMsg(`${nameOf(state.puzzle[n - 1])}: ${n} of ${N} squares. A tour can still be completed.`, "ok");
    }
  }

  async function checkPuzzle() {
    const seq = ++state.checkSeq;
    const params = {
      board: boardSpec(),
      path: state.puzzle.map(nameOf).join(","),
      closed: $("challenge").checked ? "true" : "false",
      ...shapeParams(),
    };
    let v;
    try {
      v = await api("api/puzzle", params);
    } catch (e) {
      if (seq === state.checkSeq) puzzleMsg(`Error: ${e.message}`, "error");
      return null;
    }
    if (seq !== state.checkSeq) return null;  // the position changed meanwhile
    state.verdict = v;
    if (state.view === null) sayVerdict(v);
    if (v.status === "won") {
      $("board-wrap").classList.add("won");
      if (state.game.replay) { stopClock(); state.game.done = true; }  // a link's game: not ours to time
      else if (!state.game.done) finishGame();
    }
    showPuzzle();
    return v;
  }

  // -- the win: the time, the counts, the best time of this board and level, a share text
  function bestTimes() { return store.get(STORE.best) || {}; }
  function showBestTimes() {
    const best = bestTimes(), list = $("best-times");
    list.textContent = "";
    const keys = Object.keys(best).sort();
    if (!keys.length) { list.innerHTML = "<li>none yet</li>"; return; }
    for (const k of keys) {
      const li = document.createElement("li");
      li.textContent = `${k}: ${clockText(best[k])}`;
      li.dataset.kind = k;
      list.appendChild(li);
    }
  }
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  function finishGame() {
    stopClock();
    state.game.done = true;
    const ms = elapsed(), key = gameKind(), best = bestTimes();
    const record = !(key in best) || ms < best[key];
    const before = best[key];
    if (record) { best[key] = ms; store.set(STORE.best, best); }
    const g = state.game, N = squareCount();
    const kind = $("challenge").checked ? "closed tour" : "tour";
    const daily = g.daily ? `Daily puzzle ${g.daily}: ` : "";
    const counts = `${plural(g.hints, "hint")} and ${plural(g.undos, "undo")}`;
    $("win-summary").textContent = `A ${kind} of all ${N} squares on ${boardSpec()} ` +
      `(${g.level}) in ${clockText(ms)}, with ${counts}.`;
    $("win-best").textContent = record ?
      (before === undefined ? "Your first time on this board and level." :
        `A new best time (before: ${clockText(before)}).`) :
      `Your best on this board and level: ${clockText(best[key])}.`;
    $("share-text").value = `${daily}Knight's ${kind} on ${boardSpec()}${shapeSuffix()} ` +
      `(${g.level}) in ${clockText(ms)}, ${counts}. ` +
      `Replay it: ${shareURL()}`;
    $("win").hidden = false;
    $("win-title").focus();
    showBestTimes();
  }

  function pickPuzzleSquare(i) {
    if (state.view !== null) { backToGame(); return; }
    const legal = legalNext();
    if (state.game.done || (state.verdict && state.verdict.status === "won")) return;
    if (legal !== null && !legal.includes(i)) {
      const cur = state.puzzle[state.puzzle.length - 1];
      puzzleMsg(state.puzzle.includes(i) ? `${nameOf(i)} is already visited.` :
        `${nameOf(i)} is not a knight's move from ${nameOf(cur)}.`, "lost");
      return;
    }
    startClock();
    state.puzzle.push(i);
    state.hint = null;
    state.verdict = null;
    showPuzzle();
    puzzleMsg("Checking\u2026", "busy");
    checkPuzzle();
  }

  function undo() {
    if (state.mode !== "puzzle" || state.puzzle.length <= given() || state.game.done) return;
    if (!level().undo) { puzzleMsg("No undo at the hard level.", "lost"); return; }
    state.view = null;
    state.puzzle.pop();
    state.game.undos++;
    state.hint = null;
    state.verdict = null;
    $("board-wrap").classList.remove("won");
    showPuzzle();
    puzzleMsg("Checking\u2026", "busy");
    checkPuzzle();
  }

  async function hint() {
    if (state.mode !== "puzzle" || state.game.done) return;
    if (!level().hints) { puzzleMsg(`No hints at the ${state.game.level} level.`, ""); return; }
    state.view = null;
    puzzleMsg("Looking for a move that still completes a tour\u2026", "busy");
    const v = state.verdict || (await checkPuzzle());
    if (!v) return;
    if (v.hint) {
      state.hint = parseName(v.hint);
      state.game.hints++;
      showPuzzle();
      const what = state.puzzle.length ? "Hint: move to" : "Hint: start on";
      puzzleMsg(`${what} ${v.hint}; a full tour can be completed from there.`, "ok");
      if (cells[state.hint]) moveFocus(state.hint);
    } else if (v.status === "won") {
      puzzleMsg("Already won.", "win");
    } else {
      puzzleMsg(`No hint: ${v.reason}.`, v.status === "unknown" ? "" : "lost");
    }
  }

  // A new game: the board empty (or the daily puzzle's start placed), the clock and counts at 0.
  function restart(first) {
    state.puzzle = first === undefined || first === null ? [] : [first];
    state.verdict = null;
    state.hint = null;
    state.view = null;
    state.game = { level: $("level").value, hints: 0, undos: 0, acc: 0, since: null, done: false,
      daily: first === undefined || first === null ? null : state.game.daily };
    $("daily-note").hidden = !state.game.daily;
    $("daily-note").textContent = state.game.daily ?
      `Daily puzzle of ${state.game.daily}: the same board and start for everyone today.` : "";
    $("win").hidden = true;
    $("board-wrap").classList.remove("won");
    showPuzzle();
    if (state.puzzle.length) { puzzleMsg("Checking\u2026", "busy"); checkPuzzle(); } else {
      puzzleMsg("Click any square to place the knight.", "");
      state.checkSeq++;
    }
  }

  // The daily puzzle: board and start chosen by the server from today's date (UTC).
  async function daily(date) {
    let d;
    try {
      d = await api("api/daily", date ? { date } : undefined);
    } catch (e) {
      puzzleMsg(`Error: ${e.message}`, "error");
      return;
    }
    state.restoring = true;
    setMode("puzzle");
    setSize(d.width, d.height, 1);
    $("challenge").checked = Boolean(d.closed);
    state.game.daily = d.date;
    state.restoring = false;
    restart(parseName(d.start));
  }

  // -- the address and localStorage: a link reproduces a game or a tour; a reload comes back ---

  const keepCommas = (v) => encodeURIComponent(v).replace(/%2C/g, ",").replace(/%3A/g, ":");
  function stateParams() {
    const q = [["mode", state.mode], ["board", boardSpec()]];
    for (const [k, v] of Object.entries(shapeParams())) q.push([k, v]);
    if (state.mode === "puzzle") {
      q.push(["level", state.game.level]);
      if ($("challenge").checked) q.push(["closed", "1"]);
      if (state.game.daily) q.push(["daily", state.game.daily]);
      if (state.puzzle.length) q.push(["moves", state.puzzle.map(nameOf).join(",")]);
    } else {
      if ($("closed").checked) q.push(["closed", "1"]);
      if (state.start !== null) q.push(["start", nameOf(state.start)]);
      if (state.end !== null) q.push(["end", nameOf(state.end)]);
      if (state.tour) {
        if (state.tour.closed) q.push(["tour", "closed"]);
        q.push(["moves", state.tour.path.join(",")]);
      }
    }
    return q.map(([k, v]) => `${k}=${keepCommas(String(v))}`).join("&");
  }
  const shareURL = () => `${location.origin}${location.pathname}#${stateParams()}`;

  function saveState() {
    if (state.restoring || document.body.dataset.mode === "numbers") return;  // numbers.js's
    const hash = stateParams();
    if (location.hash.slice(1) !== hash) history.replaceState(null, "", `#${hash}`);
    const g = { ...state.game, acc: elapsed(), since: null, running: state.game.since !== null };
    store.set(STORE.game, { hash, game: state.mode === "puzzle" ? g : null });
  }

  function setSize(w, h, d) {
    $("width").value = String(w);
    $("height").value = String(h);
    $("depth").value = String(d || 1);
    if (readSize()) {
      if (state.mode === "puzzle") restart(); else { showEnds(); showSolve(); }
    }
  }
  function syncPreset() {
    const spec = `${$("width").value}x${$("height").value}`;
    const sel = $("preset");
    sel.value = $("depth").value === "1" && [...sel.options].some((o) => o.value === spec) ? spec : "custom";
  }

  // A path of square names checked against the board: the indices, or the first problem.
  function readMoves(text) {
    const names = text ? text.split(",").filter(Boolean) : [];
    const out = [];
    for (const name of names) {
      const i = parseName(name);
      if (i === null || i < 0 || i >= area() || nameOf(i) !== name || state.holes.has(i)) {
        return { error: `${name} is not a square of this board` };
      }
      if (out.includes(i)) return { error: `${name} comes twice` };
      if (out.length && !isMove(out[out.length - 1], i)) {
        return { error: `${nameOf(out[out.length - 1])} to ${name} is not a move` };
      }
      out.push(i);
    }
    return { moves: out };
  }

  // A tour on the board to replay (from the solver, a link, or the library).
  function loadTour(data, message) {
    // where the moves cross: from api/solve?metrics=true or the library's tour; kept apart
    // from the tour JSON (downloaded and drawn as the contract's)
    const shape = data.metrics || data;
    state.crossings = Array.isArray(shape.crossing_points) ? shape.crossing_points : null;
    data = { ...data };
    delete data.metrics;
    delete data.crossing_points;
    state.tour = data;
    state.partial = null;
    state.order = data.path.map(parseName);
    const n = state.order.length;
    $("progress").disabled = false;
    for (const b of document.querySelectorAll(".dl")) {
      b.disabled = b.dataset.format === "gif" && n > state.limits.gif_max_squares;
    }
    status(message || `${data.closed ? "Closed" : "Open"} tour of ${n} squares from ` +
      `${data.path[0]} to ${data.path[n - 1]}.`, "ok");
    showSpeed();
    showCrossingNote();
  }

  // Apply an address's parameters: the board and its shape, the mode, and the moves.
  function applyParams(q, savedGame) {
    state.restoring = true;
    try {
      setMode(q.get("mode") === "puzzle" ? "puzzle" : "solve");
      const m = /^(\d+)x(\d+)(?:x(\d+))?$/.exec(q.get("board") || "");
      if (m) setSize(+m[1], +m[2], +(m[3] || 1));
      // the shape is the link's: what it does not name is the plain board's (not the last one's)
      const leaper = q.get("leaper") || "", wrap = q.get("wrap") || "";
      const legs = /^\d+,\d+$/.test(leaper) ? leaper.split(",").map(Number) : [1, 2];
      const holes = new Set((q.get("holes") || "").split(",").filter(Boolean).map(parseName)
        .filter((i) => i !== null && i >= 0 && i < area()));
      const wrapped = wrap === "cylinder" || wrap === "torus" ? wrap : "";
      if (legs.join() !== state.leaper.join() || wrapped !== state.wrap ||
          [...holes].sort().join() !== [...state.holes].sort().join()) {
        state.leaper = legs;
        if ([...$("leaper").options].some((o) => o.value === legs.join())) $("leaper").value = legs.join();
        state.wrap = wrapped;
        $("wrap").value = wrapped;
        state.holes = holes;
        forgetTour();  // a tour of another shape
        drawBoard();
        $("holes-out").textContent = state.holes.size ? shapeParams().holes : "none";
      }
      const closed = q.get("closed") === "1" || q.get("closed") === "true";
      const read = readMoves(q.get("moves") || "");
      if (state.mode === "puzzle") {
        if (LEVELS[q.get("level")]) $("level").value = q.get("level");
        $("challenge").checked = closed;
        restart();
        state.game.daily = q.get("daily") || null;
        if (savedGame && savedGame.level === $("level").value) {
          state.game = { ...state.game, ...savedGame, since: savedGame.running ? Date.now() : null };
        }
        state.puzzle = read.moves || [];
        $("daily-note").hidden = !state.game.daily;
        $("daily-note").textContent = state.game.daily ?
          `Daily puzzle of ${state.game.daily}: the same board and start for everyone today.` : "";
        state.game.replay = !savedGame && state.puzzle.length > 0;
      } else {
        $("closed").checked = closed;
        const start = parseName(q.get("start") || ""), end = parseName(q.get("end") || "");
        state.start = start !== null && start < area() ? start : null;
        state.end = end !== null && end < area() ? end : null;
        showEnds();
        const moves = read.moves || [];
        if (moves.length === squareCount() && moves.length > 1) {
          const tourClosed = q.get("tour") === "closed" && isMove(moves[moves.length - 1], moves[0]);
          loadTour({
            width: state.W, height: state.H, ...shapeFields(), closed: tourClosed, method: "link",
            path: moves.map(nameOf),
            xy: moves.map((i) => (state.D > 1 ? [xOf(i), yOf(i), zOf(i)] : [xOf(i), yOf(i)])),
          }, null);
          state.step = moves.length;
        } else {
          forgetTour();  // the link has no tour: the one shown before is not its
        }
      }
      if (read.error) status(`The link's moves stop early: ${read.error}.`, "error");
    } finally {
      state.restoring = false;
    }
    if (state.mode === "puzzle") {
      showPuzzle();
      puzzleMsg("Checking\u2026", "busy");
      checkPuzzle();
    } else {
      timedDraw(showSolve);
      saveState();
    }
  }

  // At start: the address's game or tour, else the one kept from the last visit.
  const initialHash = location.hash.slice(1);  // before the page writes its own
  async function restoreAtStart() {
    const hash = initialHash;
    const saved = store.get(STORE.game);
    const q = new URLSearchParams(hash);
    if (q.get("mode") === "numbers") {  // numbers.js opens it (after "knightstour:ready")
      document.body.dataset.mode = "numbers";
      return;
    }
    if (q.has("daily") && !q.has("moves")) { await daily(q.get("daily") || undefined); return; }
    if (q.has("library")) { await openLibraryTour(q.get("library")); return; }
    if (hash && q.has("board")) {
      applyParams(q, saved && saved.hash === hash ? saved.game : null);
    } else if (saved && saved.hash) {
      applyParams(new URLSearchParams(saved.hash), saved.game);
    }
  }

  // A tour of the library (knightstour serve --db): on the board to replay.
  async function openLibraryTour(id) {
    let data;
    try {
      data = await api(`api/library/tours/${encodeURIComponent(id)}`);
    } catch (e) {
      status(`Could not open tour ${id} of the library: ${e.message}`, "error");
      return;
    }
    const q = new URLSearchParams({ mode: "solve", board: `${data.width}x${data.height}` +
      (data.depth ? `x${data.depth}` : "") });
    if (data.holes) q.set("holes", data.holes.join(","));
    if (data.leaper) q.set("leaper", data.leaper.join(","));
    if (data.wrap) q.set("wrap", data.wrap);
    applyParams(q, null);  // the tour's board and shape, as a link's
    loadTour(data, `Tour ${data.id} of the library: ${data.closed ? "closed" : "open"}, ` +
      `${data.path.length} squares from ${data.path[0]} to ${data.path[data.path.length - 1]} ` +
      `(${data.method}).`);
    state.step = 1;
    timedDraw(showSolve);
    saveState();
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (reduce) setStep(Infinity); else setPlaying(true);
  }

  // -- the theme: the system's, or the one chosen with the toggle ----------------------------

  /** The colour a style-sheet variable gives in the current theme, for the canvas (a variable's
   * own text may be light-dark(LIGHT, DARK), which only the style sheet resolves). */
  function cssColour(name, fallback) {
    const probe = document.createElement("span");
    probe.style.color = `var(${name}, ${fallback})`;
    document.body.appendChild(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c || fallback;
  }

  const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
  const theme = () => document.documentElement.dataset.theme || (systemDark.matches ? "dark" : "light");
  function showTheme() {
    const dark = theme() === "dark";
    $("theme-toggle").setAttribute("aria-pressed", String(dark));
    if (state.canvas) { drawCanvasBoard(); redraw(); }
  }

  // -- modes, keyboard, wiring ----------------------------------------------------------------

  function activate(i) {
    moveFocus(i, false);
    if (state.mode === "solve") pickSolveSquare(i); else pickPuzzleSquare(i);
  }

  function moveFocus(i, focus = true) {
    if (state.canvas) {
      state.focus = i;
      if (focus) canvasEl.focus();
      redraw();
      $("cursor-live").textContent = squareLabel(i);
      return;
    }
    if (cells[state.focus]) cells[state.focus].setAttribute("tabindex", "-1");
    state.focus = i;
    cells[i].setAttribute("tabindex", "0");
    if (focus) cells[i].focus();
  }

  // Arrow keys within a layer; on a 3-D board, Left and Right go on into the layer beside it at
  // its edges (the layers stand in a row), and < and > (or , and .) go to the same file and
  // rank of the previous or next layer.
  function boardKeys(ev) {
    const { W, H, D } = state;
    const i = state.focus;
    let x = xOf(i), y = yOf(i), z = zOf(i);
    switch (ev.key) {
      case "ArrowLeft":
        if (x > 0) x--; else if (z > 0) { z--; x = W - 1; }
        break;
      case "ArrowRight":
        if (x < W - 1) x++; else if (z < D - 1) { z++; x = 0; }
        break;
      case "ArrowUp": y = Math.min(H - 1, y + 1); break;
      case "ArrowDown": y = Math.max(0, y - 1); break;
      case "Home": x = 0; break;
      case "End": x = W - 1; break;
      case "PageUp": y = H - 1; break;
      case "PageDown": y = 0; break;
      case "<": case ",": if (D === 1) return; z = Math.max(0, z - 1); break;
      case ">": case ".": if (D === 1) return; z = Math.min(D - 1, z + 1); break;
      case "Enter": case " ": ev.preventDefault(); activate(i); return;
      default: return;
    }
    ev.preventDefault();
    moveFocus(at(x, y, z));
  }
  svg.addEventListener("keydown", boardKeys);
  canvasEl.addEventListener("keydown", boardKeys);

  function setMode(mode) {
    if (mode === state.mode) return;
    setPlaying(false);
    state.mode = mode;
    const solveMode = mode === "solve";
    for (const [tab, panel, on] of [["tab-solve", "panel-solve", solveMode], ["tab-puzzle", "panel-puzzle", !solveMode]]) {
      $(tab).setAttribute("aria-selected", String(on));
      $(tab).tabIndex = on ? 0 : -1;
      $(panel).hidden = !on;
    }
    $("board-wrap").classList.remove("won");
    document.body.dataset.mode = mode;
    const cap = solveMode ? state.limits.max_squares : state.limits.puzzle_max_squares;
    if (area() > cap) {  // fewer layers first, then smaller sides
      const layers = Math.max(1, Math.floor(cap / (state.W * state.H)));
      $("depth").value = String(Math.min(state.D, layers));
      if (state.W * state.H > cap) {
        const side = Math.floor(Math.sqrt(cap));
        $("width").value = String(Math.min(state.W, side));
        $("height").value = String(Math.min(state.H, side));
      }
    }
    status("");
    readSize();
    if (solveMode) {
      for (const b of document.querySelectorAll(".dl")) b.disabled = !state.tour;
      showSolve();
      updateCount();
    } else {
      restart();
    }
  }

  function redraw() {
    if (state.mode === "solve") showSolve(); else showPuzzle();
    showCrossingNote();
  }

  // The page's width changed so that a 3-D board's layers fit in another number of columns.
  function relayout() {
    const focused = svg.contains(document.activeElement);
    drawBoard();
    redraw();
    if (focused && cells[state.focus]) cells[state.focus].focus();
  }

  function wire() {
    $("tab-solve").addEventListener("click", () => setMode("solve"));
    $("tab-puzzle").addEventListener("click", () => setMode("puzzle"));
    // the arrow keys go round the tabs (Numbers mode is numbers.js's: its tab's click)
    const tabs = [...document.querySelectorAll('[role="tab"]')];
    for (const [i, tab] of tabs.entries()) {
      tab.addEventListener("keydown", (ev) => {
        if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
          const next = tabs[(i + (ev.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
          next.focus();
          next.click();
        }
      });
    }
    for (const id of ["width", "height", "depth"]) {
      $(id).addEventListener("change", () => {
        if (readSize()) {
          status("");
          if (state.mode === "puzzle") restart(); else { showEnds(); showSolve(); }
        }
      });
    }
    $("clear-start").addEventListener("click", () => {
      state.start = null; forgetTour(); showEnds(); showSolve();
      document.querySelector('input[name="clicksets"][value="start"]').checked = true;
    });
    $("clear-end").addEventListener("click", () => { state.end = null; forgetTour(); showEnds(); showSolve(); });
    $("closed").addEventListener("change", updateCount);
    $("clear-holes").addEventListener("click", () => { state.holes = new Set(); reshape(); });
    $("leaper").addEventListener("change", () => {
      state.leaper = $("leaper").value.split(",").map(Number);
      reshape();
    });
    $("wrap").addEventListener("change", () => { state.wrap = $("wrap").value; reshape(); });
    $("btn-solve").addEventListener("click", solve);
    $("btn-first").addEventListener("click", () => { setPlaying(false); setStep(1); });
    $("btn-back").addEventListener("click", () => { setPlaying(false); setStep(state.step - 1); });
    $("btn-forward").addEventListener("click", () => { setPlaying(false); setStep(state.step + 1); });
    $("btn-last").addEventListener("click", () => { setPlaying(false); setStep(Infinity); });
    $("btn-play").addEventListener("click", () => setPlaying(!state.playing));
    $("progress").addEventListener("input", (ev) => { setPlaying(false); setStep(+ev.target.value); });
    $("speed").addEventListener("input", () => { $("auto-speed").checked = false; showSpeed(); });
    $("auto-speed").addEventListener("change", showSpeed);
    showSpeed();
    $("show-counts").addEventListener("change", redraw);
    $("show-numbers").addEventListener("change", redraw);
    $("show-sums").addEventListener("change", () => { drawBoard(); redraw(); });
    $("show-crossings").addEventListener("change", () => { showCrossingNote(); redraw(); });
    for (const b of document.querySelectorAll(".dl")) {
      b.addEventListener("click", () => download(b.dataset.format));
    }
    $("btn-undo").addEventListener("click", undo);
    $("btn-hint").addEventListener("click", hint);
    // Restart: the same puzzle again (the daily puzzle from its start)
    $("btn-restart").addEventListener("click", () => {
      if (state.game.daily) daily(state.game.daily); else restart();
    });
    $("level").addEventListener("change", () => {  // a new game at that level (the same daily)
      if (state.game.daily) daily(state.game.daily); else restart();
    });
    $("btn-daily").addEventListener("click", () => daily());
    $("btn-back-to-game").addEventListener("click", backToGame);
    $("btn-new-game").addEventListener("click", () => { state.game.daily = null; restart(); $("btn-restart").focus(); });
    $("btn-win-close").addEventListener("click", () => { $("win").hidden = true; $("btn-restart").focus(); });
    $("btn-copy").addEventListener("click", async () => {
      const text = $("share-text").value;
      try {
        await navigator.clipboard.writeText(text);
      } catch (e) {
        $("share-text").select();
        try { document.execCommand("copy"); } catch (e2) { /* selected for the user to copy */ }
      }
      $("btn-copy").textContent = "Copied";
      setTimeout(() => { $("btn-copy").textContent = "Copy share text"; }, 2000);
    });
    $("preset").addEventListener("change", () => {
      const v = $("preset").value;
      if (v === "custom") { $("width").focus(); return; }
      const [w, h] = v.split("x").map(Number);
      setSize(w, h, 1);
      status("");
    });
    $("theme-toggle").addEventListener("click", () => {
      const next = theme() === "dark" ? "light" : "dark";
      document.documentElement.dataset.theme = next;
      try { localStorage.setItem(STORE.theme, next); } catch (e) { /* off: this page only */ }
      showTheme();
    });
    systemDark.addEventListener("change", showTheme);
    $("challenge").addEventListener("change", () => {
      state.verdict = null; state.hint = null;
      $("board-wrap").classList.remove("won");
      checkPuzzle();
    });
    document.addEventListener("keydown", (ev) => {
      const t = ev.target;
      if (ev.ctrlKey || ev.metaKey || ev.altKey || document.body.dataset.mode === "numbers") return;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      const key = ev.key.toLowerCase();
      if (key === "escape" && state.view !== null) { backToGame(); ev.preventDefault(); return; }
      if (state.mode === "solve") {
        if (key === "p") setPlaying(!state.playing);
        else if (key === "[") { setPlaying(false); setStep(state.step - 1); }
        else if (key === "]") { setPlaying(false); setStep(state.step + 1); }
        else return;
      } else {
        if (key === "u") undo();
        else if (key === "h") hint();
        else return;
      }
      ev.preventDefault();
    });
  }

  async function init() {
    wire();
    document.body.dataset.mode = "solve";
    try {
      const [lim, pal, about] = await Promise.all([
        api("api/limits"), api("api/palette"), api("api/about"),
      ]);
      Object.assign(state.limits, lim);
      applyPalette(pal);
      $("gallery-link").hidden = !about.library;
    } catch (e) { /* keep the defaults */ }
    showTheme();
    showBestTimes();
    $("limits-note").textContent = `Up to ${state.limits.max_squares.toLocaleString("en")} ` +
      `squares to solve, ${state.limits.puzzle_max_squares} for a puzzle; searches stop after ` +
      `${state.limits.time_limit ?? 5} s.`;
    readSize();
    drawBoard();
    showEnds();
    showSolve();
    if (window.ResizeObserver) {
      let wide = $("board-wrap").clientWidth;
      new ResizeObserver(() => {
        const now = $("board-wrap").clientWidth;
        if (state.canvas && now !== wide) { wide = now; drawCanvasBoard(); redraw(); return; }
        wide = now;
        if (state.D > 1 && layoutCols() !== COLS) relayout();
      }).observe($("board-wrap"));
    }
    status("Click a square to set the start (and another for the end), then Solve.");
    await restoreAtStart();
    state.restoring = false;
    saveState();
    // the clock up to the moment the page is left, not only up to the last move
    window.addEventListener("pagehide", saveState);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") saveState();
    });
    window.addEventListener("hashchange", () => {
      const q = new URLSearchParams(location.hash.slice(1));
      if (q.get("mode") === "numbers") return;  // numbers.js's
      if (location.hash.slice(1) !== stateParams()) {
        if (q.has("daily") && !q.has("moves")) daily(q.get("daily") || undefined);
        else if (q.has("library")) openLibraryTour(q.get("library"));
        else if (q.has("board")) applyParams(q, null);
      }
    });
    document.body.dataset.ready = "true";
    document.dispatchEvent(new Event("knightstour:ready"));  // numbers.js starts
  }

  init();
})();

/* The knightstour web board: solve and animate tours, and puzzle mode. No build step.
 *
 * Squares are indices (z * H + y) * W + x (x the file, y the rank, z the layer, a1 = 0), as in
 * the Python package; names are algebraic (files a..z, aa, ab, ...), with ":layer" on a 3-D board
 * (c3:2). The page talks to the JSON API: api/solve, api/puzzle, api/count, api/limits and
 * api/render/{svg,png,gif}.
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
  let lineLayer, closeLine, knight;

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

  function hue(k, n) {
    const t = n > 1 ? k / (n - 1) : 0;
    return `hsl(${Math.round(215 - 200 * t)}, 70%, 38%)`;
  }

  function setLines(order, count, closed) {
    // show the first count-1 moves of order (creating line elements as needed)
    const n = order.length;
    while (lines.length < Math.min(count - 1, n - 1)) {
      const k = lines.length;
      lines.push(moveLine(order[k], order[k + 1], { stroke: hue(k, n - 1) }));
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
    const N = area();
    const visitedAt = new Int32Array(N);  // move number, 0 = unvisited
    for (let k = 0; k < count; k++) visitedAt[order[k]] = k + 1;
    const cur = count > 0 ? order[count - 1] : (opts.anchor ?? null);
    const showNums = $("show-numbers").checked && detailed();
    const showCounts = $("show-counts").checked && detailed();
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
      endSq: state.step === n ? state.order[n - 1] : state.end,
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
    const speed = SPEEDS[+$("speed").value];
    state.carry += ((now - state.lastFrame) / 1000) * speed;
    state.lastFrame = now;
    if (state.carry >= 1) {
      const k = Math.floor(state.carry);
      state.carry -= k;
      setStep(state.step + k);
    }
    if (state.playing) requestAnimationFrame(tick);
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
    state.order = null;
    state.step = 0;
    $("progress").disabled = true;
    for (const b of document.querySelectorAll(".dl")) b.disabled = true;
  }

  // A refused size: say why, and take the old tour off the board (it is not of this size).
  function refuseSize(message) {
    status(message, "error");
    forgetTour();
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
    if (w !== state.W || h !== state.H || d !== state.D) {
      state.W = w; state.H = h; state.D = d;
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
      const from = data.source === "published" ? ` \u2014 ${data.reason}` : "";
      countLine(`${withCommas(data.count_text)} ${data.convention}${from}.`, "known",
        data.source === "theory" ? data.reason : "");
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
    forgetTour();
    showSolve();
    status("Solving\u2026", "busy");
    $("btn-solve").disabled = true;
    const t0 = performance.now();
    try {
      const data = await api("api/solve", params);
      const ms = Math.round(performance.now() - t0);
      if (data.path) {
        state.tour = data;
        state.order = data.path.map(parseName);
        const n = state.order.length;
        $("progress").disabled = false;
        for (const b of document.querySelectorAll(".dl")) {
          b.disabled = b.dataset.format === "gif" && n > state.limits.gif_max_squares;
        }
        status(`${data.closed ? "Closed" : "Open"} tour of ${n} squares from ${data.path[0]} ` +
          `to ${data.path[n - 1]} (${data.method}, ${ms} ms).`, "ok");
        const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        state.step = reduce ? n : 1;
        showSolve();
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

  // -- puzzle mode ----------------------------------------------------------------------------

  function puzzleMsg(text, kind) {
    const p = $("puzzle-msg");
    p.textContent = text;
    p.className = "puzzle-msg" + (kind ? " " + kind : "");
  }

  function legalNext() {
    const p = state.puzzle;
    if (!p.length) return null;  // any square
    const seen = new Set(p);
    return nbr[p[p.length - 1]].filter((q) => !seen.has(q));
  }

  function showPuzzle() {
    const p = state.puzzle;
    clearLines();
    setLines(p, p.length, false);
    const won = state.verdict && state.verdict.status === "won";
    if (won && $("challenge").checked) setLines(p, p.length, true);
    paint(p, p.length, { highlight: true, hint: state.hint, startSq: p.length ? p[0] : null });
    const N = squareCount();
    $("move-label").textContent = p.length ? `Square ${p.length} of ${N}` : `0 of ${N} squares`;
    $("btn-undo").disabled = p.length === 0;
    updateCount();
    for (const b of document.querySelectorAll(".dl")) {
      b.disabled = !won || (b.dataset.format === "gif" && N > state.limits.gif_max_squares);
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
    const n = state.puzzle.length, N = squareCount();
    if (v.status === "won") {
      puzzleMsg(`You win! A ${v.closed ? "closed " : ""}tour of all ${N} squares.`, "win");
      $("board-wrap").classList.add("won");
    } else if (v.status === "lost" || v.status === "stuck") {
      puzzleMsg(`This position is lost: ${v.reason}. Undo and try another move.`, "lost");
    } else if (v.status === "unknown") {
      puzzleMsg(v.reason + ".", "");
    } else if (n === 0) {
      puzzleMsg("Click any square to place the knight.", "");
    } else {
      puzzleMsg(`${n} of ${N} squares. A tour can still be completed.`, "ok");
    }
    showPuzzle();
    return v;
  }

  function pickPuzzleSquare(i) {
    const legal = legalNext();
    if (state.verdict && state.verdict.status === "won") return;
    if (legal !== null && !legal.includes(i)) {
      const cur = state.puzzle[state.puzzle.length - 1];
      puzzleMsg(state.puzzle.includes(i) ? `${nameOf(i)} is already visited.` :
        `${nameOf(i)} is not a knight's move from ${nameOf(cur)}.`, "lost");
      return;
    }
    state.puzzle.push(i);
    state.hint = null;
    state.verdict = null;
    showPuzzle();
    puzzleMsg("Checking\u2026", "busy");
    checkPuzzle();
  }

  function undo() {
    if (state.mode !== "puzzle" || !state.puzzle.length) return;
    state.puzzle.pop();
    state.hint = null;
    state.verdict = null;
    $("board-wrap").classList.remove("won");
    showPuzzle();
    puzzleMsg("Checking\u2026", "busy");
    checkPuzzle();
  }

  async function hint() {
    if (state.mode !== "puzzle") return;
    puzzleMsg("Looking for a move that still completes a tour\u2026", "busy");
    const v = state.verdict || (await checkPuzzle());
    if (!v) return;
    if (v.hint) {
      state.hint = parseName(v.hint);
      showPuzzle();
      const what = state.puzzle.length ? "Hint: move to" : "Hint: start on";
      puzzleMsg(`${what} ${v.hint}; a full tour can be completed from there.`, "ok");
      if (cells[state.hint]) cells[state.hint].focus();
    } else if (v.status === "won") {
      puzzleMsg("Already won.", "win");
    } else {
      puzzleMsg(`No hint: ${v.reason}.`, v.status === "unknown" ? "" : "lost");
    }
  }

  function restart() {
    state.puzzle = [];
    state.verdict = null;
    state.hint = null;
    $("board-wrap").classList.remove("won");
    showPuzzle();
    puzzleMsg("Click any square to place the knight.", "");
    state.checkSeq++;
  }

  // -- modes, keyboard, wiring ----------------------------------------------------------------

  function activate(i) {
    moveFocus(i, false);
    if (state.mode === "solve") pickSolveSquare(i); else pickPuzzleSquare(i);
  }

  function moveFocus(i, focus = true) {
    if (cells[state.focus]) cells[state.focus].setAttribute("tabindex", "-1");
    state.focus = i;
    cells[i].setAttribute("tabindex", "0");
    if (focus) cells[i].focus();
  }

  // Arrow keys within a layer; on a 3-D board, Left and Right go on into the layer beside it at
  // its edges (the layers stand in a row), and < and > (or , and .) go to the same file and
  // rank of the previous or next layer.
  svg.addEventListener("keydown", (ev) => {
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
  });

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
  }

  // The page's width changed so that a 3-D board's layers fit in another number of columns.
  function relayout() {
    const focused = svg.contains(document.activeElement);
    drawBoard();
    redraw();
    if (focused) cells[state.focus].focus();
  }

  function wire() {
    $("tab-solve").addEventListener("click", () => setMode("solve"));
    $("tab-puzzle").addEventListener("click", () => setMode("puzzle"));
    for (const id of ["tab-solve", "tab-puzzle"]) {
      $(id).addEventListener("keydown", (ev) => {
        if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
          const next = id === "tab-solve" ? "tab-puzzle" : "tab-solve";
          $(next).focus();
          setMode(next === "tab-solve" ? "solve" : "puzzle");
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
    const speedOut = () => { $("speed-out").textContent = `${SPEEDS[+$("speed").value]} moves/s`; };
    $("speed").addEventListener("input", speedOut);
    speedOut();
    $("show-counts").addEventListener("change", redraw);
    $("show-numbers").addEventListener("change", redraw);
    $("show-sums").addEventListener("change", () => { drawBoard(); redraw(); });
    for (const b of document.querySelectorAll(".dl")) {
      b.addEventListener("click", () => download(b.dataset.format));
    }
    $("btn-undo").addEventListener("click", undo);
    $("btn-hint").addEventListener("click", hint);
    $("btn-restart").addEventListener("click", restart);
    $("challenge").addEventListener("change", () => {
      state.verdict = null; state.hint = null;
      $("board-wrap").classList.remove("won");
      checkPuzzle();
    });
    document.addEventListener("keydown", (ev) => {
      const t = ev.target;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      const key = ev.key.toLowerCase();
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
      const lim = await api("api/limits");
      Object.assign(state.limits, lim);
    } catch (e) { /* keep the defaults */ }
    $("limits-note").textContent = `Up to ${state.limits.max_squares.toLocaleString("en")} ` +
      `squares to solve, ${state.limits.puzzle_max_squares} for a puzzle; searches stop after ` +
      `${state.limits.time_limit ?? 5} s.`;
    readSize();
    drawBoard();
    showEnds();
    showSolve();
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        if (state.D > 1 && layoutCols() !== COLS) relayout();
      }).observe($("board-wrap"));
    }
    status("Click a square to set the start (and another for the end), then Solve.");
    document.body.dataset.ready = "true";
  }

  init();
})();

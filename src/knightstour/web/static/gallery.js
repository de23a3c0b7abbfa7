/* The gallery of the tour library (knightstour serve --db): boards and counts, filters, pages of
 * thumbnails, two tours compared. Everything it shows comes from its JSON twins under
 * api/library (read-only, keyset-paginated); the page's address holds the same parameters.
 * A tour opens on the board to replay (./#library=ID). No build step.
 */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const SVGNS = "http://www.w3.org/2000/svg";
  const query = new URLSearchParams(location.search);
  const palette = { gradient: ["#1f3c99", "#6f2ea3", "#c0265d", "#e8620c"], colors: {}, maxBands: 64 };
  const thumbs = new Map();  // tour id -> its drawn thumbnail (kept while the page lives)
  const chosen = new Map();  // tour id -> board, for compare

  async function api(path) {
    const r = await fetch(path);
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
    if (!r.ok) throw new Error(data && data.error ? data.error : `HTTP ${r.status}`);
    return data;
  }
  function fail(e) {
    $("error").hidden = false;
    $("error").textContent = e.message || String(e);
  }
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function hexRgb(c) {
    const h = c.replace("#", "");
    return [0, 2, 4].map((k) => parseInt(h.slice(k, k + 2), 16));
  }
  // Python's round (halves to even), so that a colour here is the picture's to the digit
  function pyRound(x) {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  function ramp(stops, t) {  // knightstour.render.style.ramp, as app.js draws the board
    if (stops.length === 1) return stops[0];
    t = Math.min(Math.max(t, 0), 1) * (stops.length - 1);
    const i = Math.min(Math.floor(t), stops.length - 2), f = t - i;
    const a = hexRgb(stops[i]), b = hexRgb(stops[i + 1]);
    return "#" + a.map((u, k) => pyRound(u + (b[k] - u) * f).toString(16).padStart(2, "0")).join("");
  }

  // A board with a path: squares, the path in bands of the palette's ramp (a thumbnail: a few
  // bands; move k in band floor(k * bands / moves), as the pictures do), the start disc;
  // shared moves (a set of "i-j" keys) drawn wide and gold. Squares are indices
  // (z * H + y) * W + x; a 3-D board's D layers stand side by side, a square apart.
  function drawTour(W, H, D, points, opts) {
    const tile = W + 1, wide = D * tile - 1;
    const svg = el("svg", { viewBox: `0 0 ${wide} ${H}`, role: "img", "aria-label": opts.label });
    const checks = W * H * D <= 400;
    for (let z = 0; z < D; z++) {
      el("rect", { x: z * tile, y: 0, width: W, height: H, fill: palette.colors.light || "#f2f0eb" }, svg);
      if (!checks) continue;
      let d = "";
      for (let y = 0; y < H; y++) {
        for (let x = (y + z) % 2 === 0 ? 0 : 1; x < W; x += 2) d += `M${z * tile + x} ${H - 1 - y}h1v1h-1z`;
      }
      el("path", { d, fill: palette.colors.dark || "#cdd4dc" }, svg);
    }
    const at = (i) => {
      const z = Math.floor(i / (W * H)), r = i % (W * H);
      return [z * tile + (r % W) + 0.5, H - 0.5 - Math.floor(r / W)];
    };
    const n = points.length, moves = Math.max(1, n - 1), bands = Math.min(opts.bands || 8, moves);
    const width = Math.max(0.06, Math.min(0.16, 6 / Math.max(W, H)));
    if (opts.shared) {
      for (let k = 0; k + 1 < n; k++) {
        const a = points[k], b = points[k + 1];
        if (opts.shared.has(`${Math.min(a, b)}-${Math.max(a, b)}`)) {
          const [x1, y1] = at(a), [x2, y2] = at(b);
          el("line", { x1, y1, x2, y2, stroke: "#e3a008", "stroke-width": width * 3.2,
            "stroke-linecap": "round", class: "shared" }, svg);
        }
      }
    }
    for (let b = 0; b < bands; b++) {  // band b: moves ceil(b * moves / bands) on
      const lo = Math.ceil((b * moves) / bands), hi = Math.ceil(((b + 1) * moves) / bands);
      const pts = points.slice(lo, hi + 1).map((i) => at(i).join(",")).join(" ");
      el("polyline", { points: pts, fill: "none", stroke: ramp(palette.gradient, bands > 1 ? b / (bands - 1) : 0),
        "stroke-width": width, "stroke-linejoin": "round", "stroke-linecap": "round" }, svg);
    }
    const [sx, sy] = at(points[0]);
    el("circle", { cx: sx, cy: sy, r: Math.max(0.18, width * 1.6), fill: palette.colors.start || "#1e8c45" }, svg);
    return svg;
  }

  function kindText(closed) { return closed ? "closed" : "open"; }

  function showBoards(over) {
    $("lib-name").textContent = over.library;
    document.title = `Knight's tours: ${over.library}`;
    const body = $("boards").tBodies[0];
    body.textContent = "";
    const boards = new Set();
    for (const b of over.boards) {
      const tr = body.insertRow();
      const a = document.createElement("a");
      a.href = `gallery?board=${encodeURIComponent(b.board)}&closed=${b.closed}`;
      a.textContent = b.description;
      tr.insertCell().appendChild(a);
      tr.insertCell().textContent = kindText(b.closed);
      tr.insertCell().textContent = b.tours.toLocaleString("en");
      tr.insertCell().textContent = Object.entries(b.methods).map(([m, c]) => `${m} ${c.toLocaleString("en")}`).join(", ");
      boards.add(b.board);
    }
    const tr = body.insertRow();
    tr.className = "total";
    tr.insertCell().textContent = "all";
    tr.insertCell().textContent = "";
    tr.insertCell().textContent = over.tours.toLocaleString("en");
    tr.insertCell().textContent = "";
    for (const b of boards) $("f-board").add(new Option(b, b));
    for (const m of Object.keys(over.methods)) $("f-method").add(new Option(m, m));
    $("f-board").value = query.get("board") || "";
    $("f-closed").value = query.get("closed") || "";
    $("f-method").value = query.get("method") || "";
    $("f-magic").checked = query.get("magic") === "true";
    $("f-order").value = query.get("order") || "id";
    $("f-max-crossings").value = query.get("max_crossings") || "";
    $("f-max-turns").value = query.get("max_turns") || "";
  }

  function pageQuery(extra) {
    const q = new URLSearchParams();
    const keys = ["board", "closed", "method", "magic", "order", "max_crossings", "max_turns", "limit"];
    for (const k of keys) if (query.get(k)) q.set(k, query.get(k));
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    return q;
  }

  function showPage(page) {
    const list = $("thumbs");
    list.textContent = "";
    for (const t of page.tours) {
      const li = document.createElement("li");
      li.className = "thumb";
      let pic = thumbs.get(t.id);
      if (!pic) {
        pic = drawTour(t.width, t.height, t.depth || 1, t.thumb, {
          label: `tour ${t.id}: ${t.board}, ${kindText(t.closed)}, ${t.start} to ${t.end}`, bands: 8,
        });
        thumbs.set(t.id, pic);
      }
      const a = document.createElement("a");
      a.href = `./#library=${t.id}`;
      a.className = "open";
      a.setAttribute("aria-label", `Open tour ${t.id} on the board: ${t.board}, ${kindText(t.closed)}, ` +
        `${t.start} to ${t.end}, ${t.method}` +
        (t.crossings === null ? "" : `, ${t.crossings} crossings, ${t.turns} turns`));
      a.appendChild(pic);
      li.appendChild(a);
      const cap = document.createElement("div");
      cap.className = "caption";
      const mc = t.magic_class;
      cap.textContent = `#${t.id} ${t.board} ${kindText(t.closed)} ${t.start}\u2013${t.end} \u00b7 ${t.method}` +
        (mc ? ` \u00b7 ${mc.verdict}${mc.family ? `, ${mc.family}` : ""}` +
          `${mc.range === null ? "" : `, range ${mc.range}`}${mc.reentrant ? ", reentrant" : ""}` : "") +
        (t.crossings === null ? "" : ` \u00b7 ${t.crossings} crossings, ${t.turns} turns`);
      if (mc && mc.family) cap.dataset.family = mc.family;
      cap.dataset.crossings = t.crossings === null ? "" : String(t.crossings);
      li.appendChild(cap);
      const label = document.createElement("label");
      label.className = "check-inline";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.className = "choose";
      box.dataset.id = String(t.id);
      box.checked = chosen.has(t.id);
      box.addEventListener("change", () => {
        if (box.checked) chosen.set(t.id, t.board); else chosen.delete(t.id);
        showChosen();
      });
      label.appendChild(box);
      label.appendChild(document.createTextNode(` compare #${t.id}`));
      li.appendChild(label);
      li.dataset.id = String(t.id);
      list.appendChild(li);
    }
    const first = page.tours.length ? page.tours[0].id : null, last = page.tours.length ? page.tours[page.tours.length - 1].id : null;
    $("summary").textContent = page.count === 0 ? "No tours match." :
      `${page.count.toLocaleString("en")} tours match; showing ${page.tours.length} (ids ${first} to ${last}).`;
    const prev = $("prev"), next = $("next");
    prev.hidden = page.prev === null;
    next.hidden = page.next === null;
    if (page.prev !== null) prev.href = `gallery?${pageQuery({ before: page.prev })}`;
    if (page.next !== null) next.href = `gallery?${pageQuery({ after: page.next })}`;
    document.body.dataset.first = String(first);
  }

  function showChosen() {
    const ids = [...chosen.keys()];
    const boards = new Set(chosen.values());
    const ok = ids.length === 2 && boards.size === 1;
    $("btn-compare").disabled = !ok;
    $("compare-note").textContent = ids.length === 2 && !ok ? "Those two are on different boards." :
      ids.length > 2 ? "Choose only two." : ok ? `Compare #${ids[0]} and #${ids[1]}.` :
      "Choose two tours of one board to compare them.";
  }

  // With the semi-magic filter: the classes of each board shown, by family, and the census
  // (semi-magic tours are stored as numberings, open tours: none under the closed filter).
  async function showClasses(over) {
    const only = query.get("board");
    const boards = query.get("closed") === "true" ? [] : [...new Set(over.boards
      .filter((b) => b.methods.magic && (!only || b.board === only)).map((b) => b.board))];
    $("classes-section").hidden = !boards.length;
    const tallies = await Promise.all(boards.map((board) =>
      api(`api/library/magic-classes?board=${encodeURIComponent(board)}`)));
    const body = $("classes").tBodies[0];
    body.textContent = "";
    const notes = [];
    boards.forEach((board, k) => {
      const c = tallies[k];
      for (const [fam, n] of Object.entries(c.families)) {
        const tr = body.insertRow();
        tr.dataset.family = fam;
        for (const v of [board, fam, n.classes, n.reentrant]) tr.insertCell().textContent = String(v);
      }
      const tr = body.insertRow();
      tr.className = "total";
      for (const v of [board, "all", c.classes, c.reentrant]) tr.insertCell().textContent = String(v);
      if (c.published) notes.push(`${board}: ${c.classes} of the ${c.published.classes} classes ` +
        `(${c.reentrant} of the ${c.published.reentrant} closed) of the published census, ${c.published.source}.`);
    });
    $("census").textContent = notes.join(" ");
  }

  // Load a page of tours (after a link: without reloading the page; the address follows).
  async function loadPage(q, push) {
    const t0 = performance.now();
    if (push) history.pushState(null, "", `gallery?${q}`);
    const page = await api(`api/library/tours?${q}`);
    showPage(page);
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    document.body.dataset.pageMs = String(Math.round(performance.now() - t0));
    $("twin").href = `api/library/tours?${q}`;
    $("twin").textContent = `api/library/tours?${q}`;
  }

  async function showCompare(a, b) {
    const c = await api(`api/library/compare?a=${a}&b=${b}`);
    $("compare").hidden = false;
    $("results").hidden = true;
    $("filters-section").hidden = true;
    $("boards-section").hidden = true;
    const W = c.a.width, H = c.a.height, D = c.a.depth || 1;
    const index = ([x, y, z]) => ((z || 0) * H + y) * W + x;
    // the shared moves by their squares' indices (the tour JSON's xy, in path order)
    const where = new Map(c.a.path.map((name, k) => [name, index(c.a.xy[k])]));
    const shared = new Set(c.shared.map(([p, q]) => {
      const i = where.get(p), j = where.get(q);
      return `${Math.min(i, j)}-${Math.max(i, j)}`;
    }));
    for (const [fig, t] of [["fig-a", c.a], ["fig-b", c.b]]) {
      const box = $(fig).querySelector(".big");
      box.textContent = "";
      const pts = t.xy.map(index);
      if (t.closed) pts.push(pts[0]);
      box.appendChild(drawTour(W, H, D, pts, {
        label: `tour ${t.id}, ${c.shared_count} moves shared with the other`,
        bands: palette.maxBands, shared,
      }));
      const cap = $(fig).querySelector("figcaption");
      cap.textContent = "";
      const link = document.createElement("a");
      link.href = `./#library=${t.id}`;
      link.textContent = `Tour #${t.id}`;
      cap.appendChild(link);
      cap.appendChild(document.createTextNode(`: ${t.board}, ${kindText(t.closed)}, ${t.start} to ${t.end}, ` +
        `${t.method}` + (t.magic && t.magic !== "neither" ? `, ${t.magic}` : "")));
    }
    $("compare-summary").textContent = `Tours #${c.a.id} and #${c.b.id} share ${c.shared_count} of ` +
      `their ${c.moves[0]} moves.`;
    $("compare-summary").dataset.shared = String(c.shared_count);
    $("twin").href = `api/library/compare?a=${a}&b=${b}`;
    $("twin").textContent = `api/library/compare?a=${a}&b=${b}`;
  }

  function wireTheme() {
    const dark = window.matchMedia("(prefers-color-scheme: dark)");
    const theme = () => document.documentElement.dataset.theme || (dark.matches ? "dark" : "light");
    const show = () => $("theme-toggle").setAttribute("aria-pressed", String(theme() === "dark"));
    $("theme-toggle").addEventListener("click", () => {
      const next = theme() === "dark" ? "light" : "dark";
      document.documentElement.dataset.theme = next;
      try { localStorage.setItem("knightstour.theme", next); } catch (e) { /* off */ }
      show();
    });
    dark.addEventListener("change", show);
    show();
  }

  async function init() {
    wireTheme();
    try {
      const [pal, over] = await Promise.all([api("api/palette"), api("api/library")]);
      palette.gradient = pal.gradient;
      palette.colors = pal.colors;
      palette.maxBands = pal.max_bands;
      showBoards(over);
      const classes = query.get("magic") === "true" ? showClasses(over).catch(fail) : null;
      // the order and the bounds go into the address only when set (as stored, no bound)
      $("filters").addEventListener("submit", () => {
        const unset = [["f-order", "id"], ["f-max-crossings", ""], ["f-max-turns", ""]]
          .filter(([id, none]) => $(id).value.trim() === none).map(([id]) => $(id));
        for (const e of unset) e.disabled = true;
        setTimeout(() => { for (const e of unset) e.disabled = false; }, 0);
      });
      $("btn-compare").addEventListener("click", () => {
        const [a, b] = [...chosen.keys()];
        location.href = `gallery?compare=${a},${b}`;
      });
      for (const id of ["prev", "next"]) {
        $(id).addEventListener("click", (ev) => {
          ev.preventDefault();
          const q = new URL($(id).href).searchParams;
          for (const k of ["after", "before"]) query.delete(k);
          loadPage(q.toString(), true).catch(fail);
        });
      }
      window.addEventListener("popstate", () => {
        loadPage(location.search.slice(1), false).catch(fail);
      });
      const compare = (query.get("compare") || "").split(",").filter(Boolean);
      if (compare.length === 2) await showCompare(+compare[0], +compare[1]);
      else await loadPage(pageQuery(Object.fromEntries(["after", "before"].filter((k) => query.get(k))
        .map((k) => [k, query.get(k)]))).toString(), false);
      if (classes) await classes;
    } catch (e) {
      fail(e);
    }
    document.body.dataset.ready = "true";
  }

  init();
})();

/* The page's theme before the first paint: the one chosen with the toggle (kept in
   localStorage), else the system's (prefers-color-scheme, in the style sheet). */
"use strict";
try {
  const chosen = localStorage.getItem("knightstour.theme");
  if (chosen === "light" || chosen === "dark") document.documentElement.dataset.theme = chosen;
} catch (e) { /* storage off: follow the system */ }

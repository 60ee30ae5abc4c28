// DOM helpers the leaderboard and the contest site share. Every text (a bot's name, a file
// name, stderr) is set with textContent, never parsed as HTML: a name <script>…</script>
// shows as those characters.
"use strict";

function el(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

const link = (text, href) => el("a", text, { href });

// A table from column titles and rows of cells (text, or a DOM node).
function table(titles, rows, id) {
  const grid = el("table", null, id ? { id } : {});
  const head = grid.createTHead().insertRow();
  for (const title of titles) head.appendChild(el("th", title));
  const body = grid.createTBody();
  for (const cells of rows) {
    const row = body.insertRow();
    for (const cell of cells) {
      const td = row.insertCell();
      if (cell instanceof Node) td.appendChild(cell);
      else td.textContent = cell === null || cell === undefined ? "" : String(cell);
      if (typeof cell === "number") td.className = "num";
    }
  }
  return grid;
}

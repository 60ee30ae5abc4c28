// Connect Four's renderer for botarena's viewer: the board, the disc played this step
// ringed, the winning line struck through. botarena loads this file (PACKAGE/renderer.js)
// and the viewer calls create() once per replay (docs/new-game.md).
// @ts-check: its types are the viewer's contract, src/botarena/web/static/botarena.d.ts.
"use strict";

(function () {
  /**
   * @param {Botarena.ViewDocument} doc
   * @param {Botarena.UI} ui
   * @returns {Botarena.Renderer}
   */
  function create(doc, ui) {
    const replay = doc.replay;
    const frames = [replay.initial_frame, ...replay.steps.map((step) => step.frame)];
    const names = replay.bots.map((bot) => bot.name);
    const colors = ["#fdd835", "#e53935"];
    const last = frames.length - 1;

    function draw(t) {
      const board = frames[t].board;
      const rows = board.length, cols = board[0].length;
      const cell = Math.floor(640 / Math.max(rows, cols));
      const canvas = ui.canvas;
      canvas.width = cols * cell;
      canvas.height = rows * cell;
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#1565c0";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      const moved = frames[t].move;
      let top = -1;  // the row of the disc played this step: the highest in its column
      if (moved !== null && moved !== undefined) {
        top = board.findIndex((row) => row[moved] !== ".");
      }
      board.forEach((row, r) => [...row].forEach((disc, c) => {
        ctx.beginPath();
        ctx.arc((c + 0.5) * cell, (r + 0.5) * cell, cell * 0.4, 0, 2 * Math.PI);
        ctx.fillStyle = disc === "X" ? colors[0] : disc === "O" ? colors[1] : "#fff";
        ctx.fill();
        if (r === top && c === moved) {
          ctx.lineWidth = 4;
          ctx.strokeStyle = "#212121";
          ctx.stroke();
        }
      }));
      const line = frames[t].line || [];
      if (line.length) {
        const [first, end] = [line[0], line[line.length - 1]];
        ctx.beginPath();
        ctx.moveTo((first[1] + 0.5) * cell, (first[0] + 0.5) * cell);
        ctx.lineTo((end[1] + 0.5) * cell, (end[0] + 0.5) * cell);
        ctx.lineWidth = 6;
        ctx.strokeStyle = "#212121";
        ctx.stroke();
      }
    }

    return {
      stepsPerSecond: 2,
      color: (seat) => colors[seat],
      label: (t) => (t === 0 ? "start" : `move ${t}: ${names[(t - 1) % 2]} in column ${frames[t].move}`),
      scores: (t) => (t === last && replay.result ? replay.result.players.map((p) => p.score) : []),
      notes: (t) => (frames[t].winner !== null && frames[t].winner !== undefined && t === last
        ? [`${names[frames[t].winner]} wins`] : []),
      draw,
      state: (t) => ({ board: frames[t].board, move: frames[t].move, line: frames[t].line }),
    };
  }

  Botarena.renderers.connect4 = { create };
})();

// The generic renderer, for a game that ships none (PACKAGE/renderer.js): each frame as
// text, the scores, and what each bot was sent and answered at that step. A new game is
// viewable at once; its own renderer replaces this one when it registers.
"use strict";

(function () {
  function create(doc, ui) {
    const replay = doc.replay;
    const frames = [replay.initial_frame, ...replay.steps.map((step) => step.frame)];
    const names = replay.bots.map((bot) => bot.name);
    const last = frames.length - 1;
    ui.canvas.hidden = true;
    const text = document.createElement("pre");
    text.className = "generic-frame";
    const io = document.createElement("pre");
    io.className = "generic-io";
    ui.extra.replaceChildren(text, io);

    // A frame's scores: the result's at the end, else any per-seat list named like scores.
    function scores(t) {
      if (t === last && replay.result) return replay.result.players.map((p) => p.score);
      const frame = frames[t] || {};
      for (const key of ["scores", "score", "points"]) {
        if (Array.isArray(frame[key])) return frame[key];
      }
      return [];
    }

    function acts(t) {
      return t === 0 ? [] : replay.steps[t - 1].acts || [];
    }

    return {
      stepsPerSecond: 4,
      color: (seat) => Botarena.COLORS[seat % Botarena.COLORS.length],
      label: (t) => (t === 0 ? "start" : `step ${t}`),
      scores,
      notes: (t) => acts(t).filter((act) => act.fault).map((act) =>
        `${names[act.seat]}: ${act.fault.join(": ")}`),
      draw(t) {
        text.textContent = JSON.stringify(frames[t], null, 1);
        io.textContent = acts(t).map((act) => {
          const sent = act.sent === undefined ? "" : `${names[act.seat]} was sent:\n${act.sent}\n`;
          const reply = act.reply === undefined ? "" : `${names[act.seat]} answered:\n${act.reply}\n`;
          return sent + reply;
        }).join("\n");
      },
      state: (t) => ({ frame: frames[t], acts: acts(t) }),
    };
  }

  Botarena.renderers.generic = { create };
})();

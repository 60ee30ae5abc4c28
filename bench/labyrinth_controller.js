// Plays one Ever-Changing Labyrinth game under the original controller, for
// bench/bench_labyrinth.py's side-by-side row.
//
// usage: node labyrinth_controller.js ENGINE_JS ADVENTURERS MAZE_MASTER SEED
// ENGINE_JS is docs/engine.js of a checkout of Beefster09/everchanging-labyrinth (the bench
// names the commit it was measured at); each bot is a .js file or a botarena post (.md,
// its first fenced code block). Prints {"score", "turns"} as JSON, the game run to its end
// with the controller's own scheduler queue drained synchronously, as its page does.
"use strict";

const fs = require("fs");
const vm = require("vm");

const [enginePath, adventurersPath, masterPath, seed] = process.argv.slice(2);

function botSource(path) {
    const text = fs.readFileSync(path, "utf8");
    if (!path.endsWith(".md")) return text;
    const block = /```(?:js|javascript)?\n([\s\S]*?)```/.exec(text);
    if (!block) throw new Error(`${path}: no fenced code block`);
    return block[1];
}

const realm = {console, performance, Math, setTimeout, Promise};
vm.createContext(realm);
vm.runInContext(fs.readFileSync(enginePath, "utf8")
                + "\n;this.GameManager = GameManager; this.Game = Game;", realm);
// the engine keeps no total of turns: count the calls of doTurn (one a turn)
let turns = 0;
const doTurn = realm.Game.prototype.doTurn;
realm.Game.prototype.doTurn = function (...args) { turns++; return doTurn.apply(this, args); };
const manager = new realm.GameManager();
manager.addBot("adventurers", "adventurers", botSource(adventurersPath));
manager.addBot("maze master", "master", botSource(masterPath));
const queue = [];
const [game, done] = manager.startGame("master", "adventurers", seed, task => queue.push(task));
while (queue.length) queue.shift()();
Promise.resolve(done).then(() => {
    process.stdout.write(JSON.stringify({score: game.score, turns}) + "\n");
}, err => {
    process.stdout.write(JSON.stringify({score: game.score, turns, strike: String(err.message).split("\n")[0]}) + "\n");
});

// botarena's Node runner for original Ever-Changing Labyrinth submissions.
//
// usage: node runner.js POST ROLE NAME FIRST_LINE LINE_COUNT fenced|indented [--check]
// It builds the bot as the original controller did (the post's first code block is the
// body of a function of (random, Math, _logs_) behind the same BOT_HEADER), then answers
// requests from botarena (postwire.py), one JSON line each way: a request {"call", "args"}
// is answered with the method's return value. The maze master's takeTurn comes as
// {"call": "takeTurn", "mana", "n", "cells", "adventurers"}: the runner keeps the maze and
// is sent only the cells that changed since its last call, and the bot gets a fresh copy
// each call, as the controller gave it. A bot exception is answered `error: ...` (a strike)
// and its place in the post goes to stderr, as do console.log lines; a post that does not
// compile or build answers every call `error: ...` with the reason.
//
// Requests are read with blocking reads and the bot's code runs only inside a call: no
// event loop turns, so nothing of the bot (timers, promises) runs between calls.
"use strict";

const fs = require("fs");
const util = require("util");
const vm = require("vm");

// The original controller's seeded RNG (bryc's CC-0 xmur3a and sfc32), unchanged.
function sfc32(a, b, c, d) {
    return function() {
      a |= 0; b |= 0; c |= 0; d |= 0;
      var t = (a + b | 0) + d | 0;
      d = d + 1 | 0;
      a = b ^ b >>> 9;
      b = c + (c << 3) | 0;
      c = c << 21 | c >>> 11;
      c = c + t | 0;
      return (t >>> 0) / 4294967296;
    }
}

function xmur3a(str) {
    for(var k, i = 0, h = 2166136261 >>> 0; i < str.length; i++) {
        k = Math.imul(str.charCodeAt(i), 3432918353); k = k << 15 | k >>> 17;
        h ^= Math.imul(k, 461845907); h = h << 13 | h >>> 19;
        h = Math.imul(h, 5) + 3864292196 | 0;
    }
    h ^= str.length;
    return function() {
        h ^= h >>> 16; h = Math.imul(h, 2246822507);
        h ^= h >>> 13; h = Math.imul(h, 3266489909);
        h ^= h >>> 16;
        return h >>> 0;
    }
}

function seededRandom(seedString) {
    let seed = xmur3a(seedString);
    let rand = sfc32(seed(), seed(), seed(), 1);
    for (let i = 0; i < 15; i++) { rand(); }
    return rand;
}

// The original BOT_HEADER, on its own line so the post's line numbers stay exact.
const BOT_HEADER = (
      '"use strict";'
    + 'const self = undefined;'
    + 'const window = undefined;'
    + 'const globalThis = undefined;'
    + 'const document = undefined;'
    + 'const setTimeout = () => undefined;'
    + 'const console = {'
        + 'log: (...args) => _logs_.push(args)'
    + '};'
);

const METHODS = {
    "adventurers": ["startRound", "takeTurn"],
    "maze master": ["generateMaze", "takeTurn"],
};

const [postPath, role, name, firstLineText, lineCountText, blockKind, mode] =
    process.argv.slice(2);
const firstLine = Number(firstLineText);
const source = fs.readFileSync(postPath, "utf8").replace(/\r\n?/g, "\n").split("\n");
// The code block as the post shows it: an indented block loses its 4 spaces (or a tab).
const code = source.slice(firstLine - 1, firstLine - 1 + Number(lineCountText))
    .map(line => blockKind === "indented" ? line.replace(/^( {4}|\t)/, "") : line)
    .join("\n");

// A fresh realm: ECMAScript built-ins and performance.now(), nothing of Node. Everything
// the bot is handed is made inside it (its RNG, the requests' objects, the maze copies), so
// no object of this realm (whose Function would reach Node) is within the bot's reach.
const context = vm.createContext(Object.create(null));  // no Object of this realm behind its global
const inRealm = source => vm.runInContext(source, context);
inRealm("(now => { globalThis.performance = {now: () => now()}; })")(() => performance.now());
const parseJSON = inRealm("JSON.parse");  // taken before the bot may replace JSON.parse
const realmMath = inRealm("Math");
const realmLogs = inRealm("() => []");
const realmSeededRandom = inRealm([sfc32, xmur3a, seededRandom].join("\n") + "\nseededRandom");

// The maze master's maze as the controller keeps it, one array per field, and the fresh
// copy of it a takeTurn receives (built by code of the bot's realm, in the controller's
// key order; literals and index stores only, so a bot that redefines Array or
// Array.prototype.push does not change it).
const maze = {n: 0, east: [], eastCost: [], south: [], southCost: []};
const copyMaze = inRealm(`(function (n, east, eastCost, south, southCost) {
    const rows = [];
    for (let r = 0, i = 0; r < n; r++) {
        const row = [];
        for (let c = 0; c < n; c++, i++) {
            row[c] = {east: east[i], eastCost: eastCost[i], south: south[i],
                      southCost: southCost[i]};
        }
        rows[r] = row;
    }
    return rows;
})`);

function updateMaze(n, cells) {
    if (n !== maze.n) {
        maze.n = n;
        for (const field of ["east", "eastCost", "south", "southCost"]) maze[field] = [];
    }
    for (const [row, col, east, eastCost, south, southCost] of cells) {
        const i = row * n + col;
        maze.east[i] = east;
        maze.eastCost[i] = eastCost;
        maze.south[i] = south;
        maze.southCost[i] = southCost;
    }
    return copyMaze(n, maze.east, maze.eastCost, maze.south, maze.southCost);
}

// The arguments of a request, as the original controller passes them.
function argumentsOf(request) {
    if (request.cells === undefined) return request.args;
    return [request.mana, updateMaze(request.n, request.cells), request.adventurers];
}

// What went wrong building the bot: --check prints it and exits 1; a game gets it on
// stderr and as the `error:` answer to every call, so the strike names the real problem.
let broken = null;

function fail(message) {
    write(2, message + "\n");
    if (mode === "--check") process.exit(1);
    broken = broken || message;
    return null;
}

function compile() {
    try {
        return vm.compileFunction(BOT_HEADER + "\n" + code, ["random", "Math", "_logs_"], {
            filename: postPath,
            lineOffset: firstLine - 2,
            parsingContext: context,
        });
    }
    catch (err) {
        return fail(describeSyntaxError(err));
    }
}

function describeSyntaxError(err) {
    const where = (err.stack || "").split("\n")[0];
    const match = /:(\d+)$/.exec(where);
    const line = match ? ` at line ${match[1]}` : "";
    const excerpt = (err.stack || "").split("\n").slice(1, 3).join("\n");
    return `${postPath}${line}: ${err.name}: ${err.message}\n${excerpt}`;
}

function build(factory, seedString) {
    const random = realmSeededRandom(seedString);
    const localMath = Object.create(realmMath);
    localMath.random = random;
    const logs = realmLogs();
    let botObj;
    try {
        botObj = factory(random, localMath, logs);
    }
    catch (err) {
        flush(logs);
        return fail(`${postPath}: ${err && err.name} while building ${name}:`
                    + ` ${err && err.message}\n${locate(err)}`);
    }
    flush(logs);
    if (botObj === null || (typeof botObj !== "object" && typeof botObj !== "function")) {
        return fail(`${postPath}: the code of ${name} returned ${String(botObj)},`
                    + " not the bot object");
    }
    const missing = METHODS[role].filter(method => typeof botObj[method] !== "function");
    if (missing.length) {
        return fail(`${postPath}: the ${role} bot ${name} has no method ${missing.join(", ")}`);
    }
    const methods = {};
    for (const method of METHODS[role]) methods[method] = botObj[method].bind(botObj);
    return {methods, logs};
}

function locate(err) {
    const stack = String((err && err.stack) || "");
    return stack.split("\n").filter(line => line.includes(postPath)).slice(0, 3).join("\n");
}

function flush(logs) {
    for (const args of logs.splice(0)) {
        write(2, util.format(...args) + "\n");
    }
}

// A return value as JSON, keeping what JSON.stringify would lose: NaN and Infinity stay
// numbers, undefined properties stay (as null), BigInts and functions keep their truth.
// No rule reads deeper than two levels (a maze's cell's `east`, a wall's coordinate); below
// that only a value's truth counts (a maze cell's `east`), and every object is true, so an
// object there is sent as {}: a cell's own extra data, however deep or cyclic, is never
// walked, as the controller never reads it. A typed array is sent as the array it acts as
// (the controller only iterates a reply).
const DEEPEST = 3;
function wire(value, depth) {
    if (value === undefined || value === null) return "null";
    switch (typeof value) {
        case "number":
            if (Number.isFinite(value)) return JSON.stringify(value);
            return Number.isNaN(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity");
        case "boolean": return value ? "true" : "false";
        case "string": return JSON.stringify(value);
        case "bigint": return value ? "true" : "false";
        case "function": case "symbol": return "{}";
    }
    if (depth >= DEEPEST) return "{}";
    if (Array.isArray(value) || (ArrayBuffer.isView(value) && typeof value.length === "number")) {
        const items = [];
        for (let i = 0; i < value.length; i++) items.push(wire(value[i], depth + 1));
        return "[" + items.join(",") + "]";
    }
    const fields = Object.getOwnPropertyNames(value)
        .map(key => JSON.stringify(key) + ":" + wire(value[key], depth + 1));
    return "{" + fields.join(",") + "}";
}

function oneLine(text) {
    return String(text).replace(/\s+/g, " ").slice(0, 300);
}

// Blocking I/O on the standard descriptors (never made non-blocking: process.stdin and
// process.stdout are not used), retried if a descriptor was left non-blocking anyway.
function write(fd, text) {
    const bytes = Buffer.from(text, "utf8");
    for (let done = 0; done < bytes.length;) {
        try {
            done += fs.writeSync(fd, bytes, done);
        }
        catch (err) {
            if (err.code !== "EAGAIN") throw err;
        }
    }
}

function* requestLines() {
    const chunk = Buffer.alloc(1 << 16);
    let pending = Buffer.alloc(0);
    for (;;) {
        let count;
        try {
            count = fs.readSync(0, chunk, 0, chunk.length, null);
        }
        catch (err) {
            if (err.code === "EAGAIN") continue;
            if (err.code === "EOF") return;
            throw err;
        }
        if (count === 0) return;
        pending = pending.length ? Buffer.concat([pending, chunk.subarray(0, count)])
            : Buffer.from(chunk.subarray(0, count));
        let start = 0;
        for (let end; (end = pending.indexOf(10, start)) >= 0; start = end + 1) {
            yield pending.toString("utf8", start, end);
        }
        pending = pending.subarray(start);
    }
}

function answer(request, bot) {
    if (broken) return "error: " + oneLine(broken);
    if (request.call === "setup") return '"ready"';
    let reply;
    try {
        const value = bot.methods[request.call](...argumentsOf(request));
        // startRound's value is ignored by the rules, as by the controller: never walked
        reply = request.call === "startRound" ? "null" : wire(value, 0);
    }
    catch (err) {
        const where = locate(err);
        write(2, `${err && err.name}: ${err && err.message}\n${where}\n`);
        reply = "error: " + oneLine(`${err && err.name} in ${name}.${request.call}: `
                                    + `${err && err.message} ${where.trim()}`);
    }
    flush(bot.logs);
    return reply;
}

const factory = compile();
if (mode === "--check") {
    build(factory, "check:" + (role === "adventurers" ? "A" : "M"));
    write(1, `${postPath}: ok, ${role} ${name}\n`);
    process.exit(0);
}

let bot = null;
for (const line of requestLines()) {
    if (!line.trim()) continue;
    const request = parseJSON(line);  // objects of the bot's own realm
    if (request.call === "setup" && !broken) bot = build(factory, request.args[1]);
    write(1, answer(request, bot) + "\n");
}
process.exit(0);

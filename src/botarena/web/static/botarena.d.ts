// The renderer contract: what botarena's viewer (player.js) gives a game's renderer and
// what it expects back. A game's PACKAGE/renderer.js registers
// `Botarena.renderers.GAME = { create }`; the viewer calls `create(doc, ui)` once per
// replay. Checked by `tsc --checkJs` against examples/connect4's renderer
// (tests/test_renderer_types.py; docs/new-game.md, section 6).

declare namespace Botarena {
  /** The page's parts a renderer draws into, handed to `create`. */
  interface UI {
    /** The board: size it and draw it in `draw(t)`. */
    canvas: HTMLCanvasElement;
    /** A box under the board for anything else (a legend, a text panel). */
    extra: HTMLElement;
    /** A box for the renderer's own controls (checkboxes, selects): the viewer keeps their
     * values when a live game reloads, and fires `change` on each. */
    options: HTMLElement;
    /** Draw the current step again (after one of the renderer's options changed). */
    redraw(): void;
  }

  /** One bot of the replay. */
  interface Bot {
    name: string;
    spec?: string;
  }

  /** One seat's line of the result. */
  interface PlayerResult {
    bot: string;
    score: number;
    rank: number;
    status: string;
    time_ms: number;
    faults: number;
  }

  /** One step of the replay: what each acting seat was sent and answered, and the frame
   * (`State.frame()`) after it. */
  interface Step {
    frame: any;
    acts: Array<{ seat: number; reply?: string; fault?: string; [key: string]: unknown }>;
  }

  /** The replay a renderer draws (docs/viewer.md has every field). */
  interface Replay {
    schema_version: number;
    game: string;
    seed: number | string;
    options: Record<string, unknown>;
    bots: Bot[];
    header: Record<string, any>;
    initial_frame: any;
    steps: Step[];
    result?: { players: PlayerResult[]; turns: number; end_reason: string };
  }

  /** The view document: the replay, and what the game's `viewer_data` hook derived. */
  interface ViewDocument {
    view_version: number;
    replay: Replay;
    derived?: Record<string, any>;
  }

  /** What `create` returns; `t` is a step number, 0 (the initial frame) to steps.length. */
  interface Renderer {
    /** Playback speed at 1x. */
    stepsPerSecond: number;
    /** A seat's colour (the players table's swatch); `Botarena.COLORS` is the default set. */
    color(seat: number): string;
    /** The caption of step t. */
    label(t: number): string;
    /** Each seat's score at step t (empty: none shown). */
    scores(t: number): number[];
    /** Lines shown beside step t (a capture, a fault). */
    notes(t: number): string[];
    /** Draw step t on `ui.canvas`. */
    draw(t: number): void;
    /** A JSON picture of step t, read by tests through `window.botarenaView`. */
    state?(t: number): unknown;
    /** The score column's heading (default "score"). */
    scoreName?: string;
    /** The word for steps in "Game over after N steps" (default "steps"). */
    stepName?: string;
    /** End reasons (the outcome's `end_reason`) in other words on the banner, over the game's own
     *  `GameInfo.end_reasons` (which the site and its API also show). */
    endReasons?: Record<string, string>;
  }

  interface RendererModule {
    create(doc: ViewDocument, ui: UI): Renderer;
  }

  /** The viewer's seat colours, for renderers that have none of their own. */
  const COLORS: readonly string[];
  /** The renderers by game name; `generic` shows a game that ships none. */
  const renderers: Record<string, RendererModule>;
}

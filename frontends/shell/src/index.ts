// The shell's entry. No asynchronous boundary before the bootstrap: the shell provides the shared singletons
// from this script (eager, module-federation.config.ts), so nothing needs negotiating before they are used, and
// the page saves the round trip for a separate bootstrap chunk before anything renders (issue 13).
import './start.js';

// The bootstrap (React, the router, the shell's modules) is in this same file (eager mode: no request of its
// own) but runs in a task of its own, after start.ts has sent the first requests: two tasks of about half the
// length instead of one, so a slow phone can answer a tap between them (issue 13, total blocking time).
setTimeout(() => {
  import(/* webpackMode: "eager" */ './bootstrap.js').catch((error: unknown) => console.error('[shell] could not start', error));
}, 0);

// The shell's entry. No asynchronous boundary before the bootstrap: the shell provides the shared singletons
// from this script (eager, module-federation.config.ts), so nothing needs negotiating before they are used, and
// the page saves the round trip for a separate bootstrap chunk before anything renders (issue 13).
import './start.js';
import './bootstrap.js';

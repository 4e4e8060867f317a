import { discoverRemotes } from './remotes/registry.js';

// Read remotes.json while the shared modules load; a remote's slot waits for it (and shows the
// fallback if it cannot be read).
discoverRemotes().catch((error: unknown) => console.error('[shell] could not read /remotes.json', error));

// Async boundary: lets the federation runtime negotiate shared singletons (react, router, @tuber/ui) first.
import('./bootstrap.js');

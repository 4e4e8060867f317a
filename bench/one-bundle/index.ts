// The baseline's entry: the shell's bootstrap as it is, without the federation runtime's async boundary
// and without remotes.json (the pages are in the bundle, see RemotePage.tsx).
import '../../frontends/shell/src/bootstrap.js';

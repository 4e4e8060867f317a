// Imported by the bootstrap so that the federation plugin provides the two legacy shares it declares for
// remotes of the release before the contract split (module-federation.config.ts, docs/adr/0054): a package
// request is provided only when the build resolves it.
import '@tuber/shell/legacy/ui-0.1';
import '@tuber/shell/legacy/ui-router-0.1';

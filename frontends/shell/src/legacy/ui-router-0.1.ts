// '@tuber/ui/router' 0.1 as the shell shares it for remotes of the release before the contract split (expand
// step, docs/adr/0054): the very router the shell renders with, so their links and hooks read its contexts.
export * from '@tuber/shell-contract/router';

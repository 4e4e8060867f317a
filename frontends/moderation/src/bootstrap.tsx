// The moderation remote as an app of its own (npm run dev), without the shell: the desk in <StandaloneShell>.
// Its API needs a moderator's token; alone, it shows what the desk shows to anyone else (sign in through the shell).
import '@tuber/ui/global.css'; // this page is the remote's own (npm run dev): it owns the base styles
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from '@tuber/shell-contract/router';
import { StandaloneShell } from '@tuber/ui';
import DeskPage from './exposed/DeskPage.js';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneShell>
      <BrowserRouter>
        <DeskPage />
      </BrowserRouter>
    </StandaloneShell>
  </StrictMode>,
);

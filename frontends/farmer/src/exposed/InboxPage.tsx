// Requests at /dashboard/inbox (issue 12). Placeholder until the page is built; the shell already routes here.
import { PagePlaceholder } from '@tuber/ui';

export default function InboxPage() {
  return <PagePlaceholder title="Requests" />;
}

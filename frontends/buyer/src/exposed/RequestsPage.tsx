// My requests at /dashboard/requests (issue 12). Placeholder until the page is built; the shell already routes here.
import { PagePlaceholder } from '@tuber/ui';

export default function RequestsPage() {
  return <PagePlaceholder title="My requests" />;
}

// Placeholder for the buyer's dashboard home (the product feed arrives in a later issue). It reads the
// shell contract, which proves the shared @tuber/ui context reaches this remote.
import { Button, PagePlaceholder, useSession, useToast } from '@tuber/ui';

export default function BuyerHome() {
  const session = useSession();
  const toast = useToast();
  return (
    <PagePlaceholder title="Buyer area" actions={<Button variant="secondary" onClick={() => toast.info('The product feed is on its way.')}>Notify me</Button>}>
      The product feed, product details and cart will live here. Session: {session.status}.
    </PagePlaceholder>
  );
}

// Placeholder for the farmer's dashboard home (the add-product form arrives in a later issue). It reads the
// shell contract, which proves the shared @tuber/ui context reaches this remote.
import { Button, PagePlaceholder, useSession, useToast } from '@tuber/ui';

export default function FarmerHome() {
  const session = useSession();
  const toast = useToast();
  return (
    <PagePlaceholder title="Farmer area" actions={<Button variant="secondary" onClick={() => toast.info('Adding products is on its way.')}>Notify me</Button>}>
      Adding products and managing your product list will live here. Session: {session.status}.
    </PagePlaceholder>
  );
}

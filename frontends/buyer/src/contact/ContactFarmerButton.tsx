import { useState } from 'react';
import { useBuyerT } from '../i18n/t.js';
import { ContactFarmerModal, type ContactAbout } from './ContactFarmerModal.js';

/** "Contact Farmer": opens the modal for one farmer (detail page and each cart item). */
export function ContactFarmerButton({ farmerId, className, ...about }: { farmerId: string; className?: string } & ContactAbout) {
  const t = useBuyerT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        {t('contact.button')}
      </button>
      {open ? <ContactFarmerModal farmerId={farmerId} onClose={() => setOpen(false)} {...about} /> : null}
    </>
  );
}

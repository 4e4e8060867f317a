import { useState } from 'react';
import { ContactFarmerModal, type ContactAbout } from './ContactFarmerModal.js';

/** "Contact Farmer": opens the modal for one farmer (detail page and each cart item). */
export function ContactFarmerButton({ farmerId, className, ...about }: { farmerId: string; className?: string } & ContactAbout) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        Contact Farmer
      </button>
      {open ? <ContactFarmerModal farmerId={farmerId} onClose={() => setOpen(false)} {...about} /> : null}
    </>
  );
}

import '@mantine/notifications/styles.layer.css';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { PHONE_QUERY } from '../../lib/media';
import './toasts.css';

/**
 * The toasts' container, loaded beside the page rather than before it (SignedInLayout imports it
 * lazily): toasts shown earlier wait in @mantine/notifications' store until it mounts.
 * At the top (centred on phones, on the right elsewhere), just below the header: a form's save
 * button sits at its bottom, and the header's credits badge a toast may be telling about stays in view.
 */
export default function Toasts() {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <Notifications position={phone ? 'top-center' : 'top-right'} limit={4} />
  );
}

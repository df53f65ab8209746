import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/**
 * The toasts' container, loaded beside the page rather than before it (SignedInLayout imports it
 * lazily): toasts shown earlier wait in @mantine/notifications' store until it mounts.
 * Bottom right (the whole width's bottom on phones): a toast never covers the header, whose
 * credits badge it may be telling about.
 */
export default function Toasts() {
  return <Notifications position="bottom-right" limit={4} />;
}

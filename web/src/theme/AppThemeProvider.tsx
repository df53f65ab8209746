import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { accessibleColors } from './palette';

// Placeholders are read as hints: AA like any text (Mantine's gray 5 is 2.1:1).
const cssVariablesResolver: CSSVariablesResolver = () => ({ variables: {}, light: { '--mantine-color-placeholder': 'var(--mantine-color-gray-6)' }, dark: {} });

/** The panel's theme: AA-contrast palettes; close buttons named in the current language. */
function makeTheme(closeLabel: string) {
  const closeButtonProps = { 'aria-label': closeLabel };
  return createTheme({
    primaryColor: 'blue',
    defaultRadius: 'md',
    colors: accessibleColors,
    // Plain objects, not Modal.extend(): importing the components would pull them into the entry chunk.
    components: {
      Modal: { defaultProps: { closeButtonProps } },
      // A <header> in a dialog portalled to <body> is a second banner landmark.
      ModalHeader: { defaultProps: { component: 'div' } },
      Notification: { defaultProps: { closeButtonProps } },
      // The focus placeholder (a tabindex'd role=presentation div) breaks role=menu's required children; focus goes to the first item instead.
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    },
  });
}

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const closeLabel = t('common.close');
  const theme = useMemo(() => makeTheme(closeLabel), [closeLabel]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}

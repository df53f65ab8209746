import { ActionIcon, Group, Menu, Tooltip } from '@mantine/core';
import {
  IconCoins,
  IconCrown,
  IconDotsVertical,
  IconEye,
  IconLock,
  IconLockOpen,
  IconPencil,
  IconShieldOff,
  IconUserOff,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Reseller } from '../../api/types';
import './texts';

export type ResellerAction = 'edit' | 'domains' | 'view' | 'block' | 'unblock' | 'credits' | 'toMaster' | 'resetTwoFactor' | 'deactivate';

interface ActionDef {
  action: ResellerAction;
  icon: Icon;
  color?: string;
  /** Route of a link action. */
  to?: '/resellers/$resellerId/edit' | '/resellers/$resellerId/add_domains' | '/resellers/$resellerId';
}

/** The actions a row offers to this caller. */
export function rowActions(row: Reseller, opts: { isAdmin: boolean; masterMin: number }): ActionDef[] {
  const list: ActionDef[] = [
    { action: 'view', icon: IconEye, to: '/resellers/$resellerId' },
    { action: 'edit', icon: IconPencil, to: '/resellers/$resellerId/edit' },
    { action: 'domains', icon: IconWorldWww, to: '/resellers/$resellerId/add_domains' },
    { action: 'credits', icon: IconCoins, color: 'teal' },
    row.status === 1 ? { action: 'block', icon: IconLock, color: 'orange' } : { action: 'unblock', icon: IconLockOpen, color: 'green' },
  ];
  if (row.group_type === 'reseller' && row.credits >= opts.masterMin) list.push({ action: 'toMaster', icon: IconCrown, color: 'grape' });
  if (opts.isAdmin) list.push({ action: 'resetTwoFactor', icon: IconShieldOff, color: 'orange' }, { action: 'deactivate', icon: IconUserOff, color: 'red' });
  return list;
}

const testId = (action: ResellerAction, id: number) => `reseller-${action.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-${id}`;

/** full: every action as an icon; split: credits and block/unblock as icons, the rest in a menu; menu: one menu button. */
export type ActionsMode = 'full' | 'split' | 'menu';

const INLINE_IN_SPLIT: readonly ResellerAction[] = ['credits', 'block', 'unblock'];

interface Props {
  row: Reseller;
  isAdmin: boolean;
  masterMin: number;
  mode: ActionsMode;
  onAction: (action: ResellerAction, row: Reseller) => void;
}

/** Row actions: links (view, edit, domains) and buttons handled by the page (test ids `reseller-<action>-<id>`). */
export function ResellerActions({ row, isAdmin, masterMin, mode, onAction }: Props) {
  const { t } = useTranslation();
  const actions = rowActions(row, { isAdmin, masterMin });
  const label = (a: ResellerAction) => t(`resellers.actions.${a}`);
  const linkParams = { resellerId: String(row.id) };
  const inline = mode === 'full' ? actions : mode === 'split' ? actions.filter((a) => INLINE_IN_SPLIT.includes(a.action)) : [];
  const inMenu = actions.filter((a) => !inline.includes(a));

  return (
    <Group gap={2} justify="flex-end" wrap="nowrap">
      {inline.map(({ action, icon: I, color, to }) => (
        <Tooltip key={action} label={label(action)} withinPortal>
          {to ? (
            <ActionIcon
              renderRoot={(props) => <Link {...props} to={to} params={linkParams} />}
              variant="subtle"
              aria-label={`${label(action)}: ${row.username}`}
              data-testid={testId(action, row.id)}
            >
              <I size={18} />
            </ActionIcon>
          ) : (
            <ActionIcon variant="subtle" color={color} aria-label={`${label(action)}: ${row.username}`} onClick={() => onAction(action, row)} data-testid={testId(action, row.id)}>
              <I size={18} />
            </ActionIcon>
          )}
        </Tooltip>
      ))}
      {inMenu.length > 0 && (
        <Menu position="bottom-end" shadow="md" width={220} withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" size={mode === 'menu' ? 'lg' : 'md'} aria-label={t('resellers.actions.menu', { username: row.username })} data-testid={`reseller-actions-${row.id}`}>
              <IconDotsVertical size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {inMenu.map(({ action, icon: I, color, to }) =>
              to ? (
                <Menu.Item
                  key={action}
                  renderRoot={(props) => <Link {...props} to={to} params={linkParams} />}
                  leftSection={<I size={16} />}
                  data-testid={testId(action, row.id)}
                >
                  {label(action)}
                </Menu.Item>
              ) : (
                <Menu.Item
                  key={action}
                  color={color === 'red' ? 'red' : undefined}
                  leftSection={<I size={16} />}
                  onClick={() => onAction(action, row)}
                  data-testid={testId(action, row.id)}
                >
                  {label(action)}
                </Menu.Item>
              ),
            )}
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}

import { BadgeCheck, Bell, CreditCard, EyeOff, FileCog, Image, Lock, Receipt, ShieldCheck, SlidersHorizontal, User, UserCog } from 'lucide-react';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import type { SettingsMenuItem } from './settings-menu';

/** /settings (spec part 2 §2), plus Security (part B's screen: two-factor, password, sessions). */
export const SETTINGS_MENU: readonly SettingsMenuItem[] = [
  { label: SETTINGS_TEXTS.personalInfo, description: 'Username, display name, bio, categories and avatar', to: '/settings/personal-info', icon: User },
  { label: SETTINGS_TEXTS.accountPreferences, description: 'Privacy, notifications, verification, payment', to: '/settings/account', icon: SlidersHorizontal },
  { label: SETTINGS_TEXTS.contentSettings, description: 'Defaults for new uploads and comments', to: '/settings/content', icon: FileCog },
  { label: SETTINGS_TEXTS.mediaSettings, description: 'Watermark on your images and videos', to: '/settings/media', icon: Image },
  { label: SETTINGS_TEXTS.security, description: 'Password, two-factor sign-in and sessions', to: '/settings/security', icon: ShieldCheck },
  { label: SETTINGS_TEXTS.accountManagement, description: 'Hide your account, delete data or the account', to: '/settings/account/management', icon: UserCog },
];

/** /settings/account (spec part 2 §2) and the subscriptions list of the subscriptions issue. */
export const ACCOUNT_MENU: readonly SettingsMenuItem[] = [
  { label: 'Privacy', description: 'Who can see your profile and online status', to: '/settings/account/privacy', icon: Lock },
  { label: 'Notifications', description: 'Email, push and marketing messages', to: '/settings/account/notifications', icon: Bell },
  { label: 'Verification', description: 'Email, phone and identity verification', to: '/settings/account/verification', icon: BadgeCheck },
  { label: 'Payment', description: 'Payment methods and history', to: '/settings/account/payment', icon: CreditCard },
  { label: 'Invisible', description: 'Hide your online and activity status', to: '/settings/account/invisible', icon: EyeOff },
  { label: SETTINGS_TEXTS.subscriptions, description: 'The creators you subscribe to', to: '/settings/account/subscriptions', icon: Receipt },
];


/** One section of the operator's pages, linked from the operator index (`/auth/operator`). */
export interface OperatorSection {
  /** The page's path under the base URL, without a leading slash. */
  path: string;
  title: string;
  /** One line on the index: what the section is for. */
  summary: string;
}

/**
 * The sections of the operator's pages, in the order the index lists them. A new operator page
 * (a SettingsPageHandler made with `operatorOnly`, on its own route under `/auth/operator/`) adds
 * its line here.
 */
export const OPERATOR_SECTIONS: readonly OperatorSection[] = [
  { path: 'auth/operator/registrations', title: 'Registration queue', summary: 'Accounts waiting for approval, with their reasons.' },
  { path: 'auth/operator/invites', title: 'Invites', summary: 'Invite codes: make them with a number of uses and an expiry, revoke them.' },
  { path: 'auth/operator/domain-blocks', title: 'Domain blocks', summary: 'Other servers blocked, silenced or noted; import and export as Mastodon\'s CSV.' },
  { path: 'auth/operator/reports', title: 'Reports', summary: 'Reports of accounts and posts, from users here and from other servers: resolve them or act.' },
  { path: 'auth/operator/accounts', title: 'Accounts', summary: 'Suspend, silence, mark sensitive or disable local and remote accounts, and undo it.' },
  { path: 'auth/operator/audit-log', title: 'Audit log', summary: 'Every moderation action: when, who, what.' },
];

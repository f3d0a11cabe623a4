// Gitea's built-in public OAuth2 clients (its DEFAULT_APPLICATIONS), with Gitea's client ids, so that
// git-credential-oauth, Git Credential Manager and tea sign in against anvil as they do against Gitea.
// They belong to no user; OAUTH2_DEFAULT_APPLICATIONS says which exist.

export interface BuiltInApplication {
  key: string;
  name: string;
  clientId: string;
  redirectUris: string[];
}

export const builtInApplications: readonly BuiltInApplication[] = [
  { key: 'git-credential-oauth', name: 'git-credential-oauth', clientId: 'a4792ccc-144e-407e-86c9-5e7d8d9c3269', redirectUris: ['http://127.0.0.1', 'https://127.0.0.1'] },
  { key: 'git-credential-manager', name: 'Git Credential Manager', clientId: 'e90ee53c-94e2-48ac-9358-a874fb9e0662', redirectUris: ['http://127.0.0.1', 'https://127.0.0.1'] },
  { key: 'tea', name: 'tea', clientId: 'd57cb8c4-630c-4168-8324-ec79935e18d4', redirectUris: ['http://127.0.0.1', 'https://127.0.0.1'] },
];

/** The built-in applications the configuration switches on. */
export function enabledBuiltIns(keys: readonly string[]): BuiltInApplication[] {
  return builtInApplications.filter((a) => keys.includes(a.key));
}

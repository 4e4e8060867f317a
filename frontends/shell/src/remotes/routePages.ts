// Which remote page a path shows (the RemotePage slots of routes.tsx), so the shell can start fetching
// that remote's files as soon as remotes.json is read, in parallel with its own shared modules, instead
// of after React has rendered the slot (docs/adr/0025). Keep in step with routes.tsx (a unit test checks).

export interface RoutePage {
  remote: string;
  expose: string;
}

const pages: [RegExp, RoutePage][] = [
  [/^\/$/, { remote: 'landing', expose: 'LandingPage' }],
  [/^\/onboarding$/, { remote: 'landing', expose: 'OnboardingPage' }],
  [/^\/signupfarmer$/, { remote: 'landing', expose: 'SignupFarmerPage' }],
  [/^\/signupbuyer$/, { remote: 'landing', expose: 'SignupBuyerPage' }],
  [/^\/forgot-password$/, { remote: 'landing', expose: 'ForgotPasswordPage' }],
  [/^\/reset-password$/, { remote: 'landing', expose: 'ResetPasswordPage' }],
  [/^\/prices\/[^/]+$/, { remote: 'landing', expose: 'PricePage' }],
  [/^\/dashboard\/buyer$/, { remote: 'buyer', expose: 'FeedPage' }],
  [/^\/dashboard\/buyer\/[^/]+$/, { remote: 'buyer', expose: 'ProductDetailPage' }],
  [/^\/dashboard\/cart$/, { remote: 'buyer', expose: 'CartPage' }],
  [/^\/dashboard\/requests$/, { remote: 'buyer', expose: 'RequestsPage' }],
  [/^\/dashboard\/buyerprofile$/, { remote: 'buyer', expose: 'BuyerProfilePage' }],
  [/^\/dashboard\/farmer$/, { remote: 'farmer', expose: 'AddProductPage' }],
  [/^\/dashboard\/productLists$/, { remote: 'farmer', expose: 'ProductListPage' }],
  [/^\/dashboard\/productLists\/[^/]+\/edit$/, { remote: 'farmer', expose: 'EditProductPage' }],
  [/^\/dashboard\/inbox$/, { remote: 'farmer', expose: 'InboxPage' }],
  [/^\/dashboard\/insights$/, { remote: 'farmer', expose: 'InsightsPage' }],
  [/^\/dashboard\/farmerprofile$/, { remote: 'farmer', expose: 'FarmerProfilePage' }],
  [/^\/dashboard\/moderation$/, { remote: 'moderation', expose: 'DeskPage' }],
];

/** The remote page `pathname` shows, or null (a page of the shell's own, or no page). */
export function routePage(pathname: string): RoutePage | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return pages.find(([pattern]) => pattern.test(path))?.[1] ?? null;
}

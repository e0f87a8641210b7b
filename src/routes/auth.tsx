import { createFileRoute, redirect } from '@tanstack/react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { AuthLayout } from '../features/auth/auth-layout';
import { SignInForm } from '../features/auth/sign-in-form';
import { SignUpForm } from '../features/auth/sign-up-form';
import { usePageTitle } from '../lib/page-title';
import { enumParam, searchValidator } from '../lib/search-params';
import { ME_STALE_TIME_MS, peekPostAuthPath, takePostAuthPath } from '../lib/session';

const AUTH_TABS = ['signin', 'signup'] as const;
type AuthTab = (typeof AUTH_TABS)[number];

const AuthSearch = searchValidator<{ tab?: AuthTab }>({ tab: enumParam(AUTH_TABS) });

export const Route = createFileRoute('/auth')({
  validateSearch: AuthSearch,
  // Someone already signed in has nothing to do here: on to where they were going, or /.
  beforeLoad: async ({ context, preload }) => {
    const me = await context.trpcUtils.auth.me.ensureData(undefined, { staleTime: ME_STALE_TIME_MS }).catch(() => null);
    if (me) throw redirect({ href: (preload ? peekPostAuthPath() : takePostAuthPath()) ?? '/', replace: true });
  },
  component: AuthPage,
});

function AuthPage() {
  const { tab = 'signin' } = Route.useSearch();
  const navigate = Route.useNavigate();
  usePageTitle(tab === 'signup' ? 'Sign Up' : 'Sign In');

  return (
    <AuthLayout
      title={tab === 'signup' ? 'Create your account' : 'Welcome back'}
      description={
        tab === 'signup'
          ? 'Join creators and fans. You must be 18 or older.'
          : 'Sign in to keep up with the creators you follow.'
      }
    >
      <Tabs
        value={tab}
        onValueChange={(value) => void navigate({ search: { tab: value as AuthTab }, replace: true })}
        activationMode="manual"
      >
        <TabsList aria-label="Sign in or sign up">
          <TabsTrigger value="signin">Sign In</TabsTrigger>
          <TabsTrigger value="signup">Sign Up</TabsTrigger>
        </TabsList>
        <TabsContent value="signin">
          <SignInForm />
        </TabsContent>
        <TabsContent value="signup">
          <SignUpForm />
        </TabsContent>
      </Tabs>
    </AuthLayout>
  );
}

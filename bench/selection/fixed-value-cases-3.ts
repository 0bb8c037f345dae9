// Held-out evaluation set 3 for fixed-value (plan constant) conflict detection, written by a
// helper that had seen neither the gate's code nor sets 1 and 2; same labels as set 1.
import type { FixedValueCase } from './fixed-value-cases';

export const FIXED_VALUE_CASES_3: FixedValueCase[] = [
  // 1. CI / pull requests
  {
    plan: {
      intent:
        'Open a pull request from a feature branch into main on acme/web-app and request a review from the frontend reviewers team',
      examples: [
        'open a PR for feat/search-filters titled "Add search filters"',
        'raise a pull request from fix/null-avatar into main, title: Fix null avatar crash',
      ],
      inputs_schema: {
        type: 'object',
        properties: {
          head_branch: {
            type: 'string',
            description: 'Branch to merge from',
            examples: ['feat/search-filters', 'fix/null-avatar'],
          },
          title: {
            type: 'string',
            description: 'Pull request title',
            examples: ['Add search filters', 'Fix null avatar crash'],
          },
        },
        required: ['head_branch', 'title'],
      },
      nodes: [
        {
          id: 'create_pr',
          params: {
            repo: 'acme/web-app',
            base: 'main',
            head: '{{inputs.head_branch}}',
            title: '{{inputs.title}}',
            draft: false,
          },
        },
        {
          id: 'request_review',
          params: { repo: 'acme/web-app', team: 'frontend-reviewers' },
        },
      ],
    },
    tasks: [
      {
        task: "open a PR for fix/token-refresh titled 'Refresh tokens before expiry'",
        expect: 'run',
        why: 'new branch and title only',
      },
      {
        task: 'Can you put up a pull request from feat/dark-mode into main on acme/web-app? Title: Dark mode toggle. Thanks!',
        expect: 'run',
        why: 'restates the fixed base branch and repo',
      },
      {
        task: "PR for branch chore/bump-deps, title 'Bump deps' — same as last time, frontend reviewers pls",
        expect: 'run',
        why: 'filler plus the same review team in other words',
      },
      {
        task: 'open pr: hotfix/checkout-500 -> main (title: Fix checkout 500). context: https://github.com/acme/web-app/issues/812',
        expect: 'run',
        why: 'issue link is incidental context; base is still main',
      },
      {
        task: "Please raise a PR for feat/csv-export with title 'CSV export'. Requested by dana@acme.io, ticket WEB-3321.",
        expect: 'run',
        why: "requester's e-mail and ticket number are incidental",
      },
      {
        task: "PR for feat/i18n titled 'Add i18n' (the base branch was just rebased, fyi)",
        expect: 'run',
        why: 'mentions the base branch in passing without changing it',
      },
      {
        task: "open a PR from feat/search-v2 into develop titled 'Search v2'",
        expect: 'hold',
        why: 'asks for base branch develop; plan always targets main',
      },
      {
        task: "PR for fix/typo, title 'Fix typo', on acme/mobile-app",
        expect: 'hold',
        why: 'different repository than the fixed acme/web-app',
      },
      {
        task: "open a draft PR for feat/wip-payments titled 'WIP payments'",
        expect: 'hold',
        why: 'asks for a draft; plan always opens ready-for-review (draft false)',
      },
      {
        task: "PR for feat/billing titled 'Billing page', and have the backend-reviewers team review it",
        expect: 'hold',
        why: 'different review team than frontend-reviewers',
      },
    ],
  },

  // 2. Database maintenance
  {
    plan: {
      intent:
        'Run VACUUM ANALYZE on a table in the pg-prod-eu-1 Postgres cluster under the maintenance lock and report in #db-ops',
      examples: ['vacuum public.orders', 'run vacuum analyze on public.events in prod'],
      inputs_schema: {
        type: 'object',
        properties: {
          table_name: {
            type: 'string',
            description: 'Schema-qualified table name',
            examples: ['public.orders', 'public.events'],
          },
        },
        required: ['table_name'],
      },
      nodes: [
        { id: 'acquire_lock', params: { cluster: 'pg-prod-eu-1', lock_name: 'maintenance' } },
        {
          id: 'vacuum',
          params: {
            cluster: 'pg-prod-eu-1',
            table: '{{inputs.table_name}}',
            mode: 'ANALYZE',
            timeout_seconds: 1800,
          },
        },
        {
          id: 'notify',
          params: { channel: '#db-ops', message: 'vacuum finished on {{inputs.table_name}}' },
        },
      ],
    },
    tasks: [
      { task: 'vacuum public.invoices', expect: 'run', why: 'new table only' },
      {
        task: "Could you run a vacuum analyze on public.sessions in pg-prod-eu-1? It's been bloating since Tuesday.",
        expect: 'run',
        why: 'restates the fixed mode and cluster',
      },
      {
        task: 'vacuum analyze public.audit_log, 30 min timeout like always, post in #db-ops when done',
        expect: 'run',
        why: '30 minutes equals the fixed 1800 s; same channel',
      },
      {
        task: 'public.users bloated again — noticed it at 02:00 UTC, see INC-4410. vacuum it pls',
        expect: 'run',
        why: 'time and incident number are incidental',
      },
      {
        task: 'vacuum public.carts; check the maintenance lock first, someone may be holding it',
        expect: 'run',
        why: 'mentions the lock param by name without changing it',
      },
      {
        task: 'same as last time: vacuum + analyze on public.payments',
        expect: 'run',
        why: 'filler; same mode',
      },
      {
        task: 'run a VACUUM FULL on public.orders',
        expect: 'hold',
        why: 'FULL mode instead of the fixed ANALYZE',
      },
      {
        task: 'vacuum public.events on pg-prod-us-2',
        expect: 'hold',
        why: 'different cluster than pg-prod-eu-1',
      },
      {
        task: "vacuum analyze public.logs but give it a 2 hour timeout, it's huge",
        expect: 'hold',
        why: 'timeout of 7200 s instead of the fixed 1800 s',
      },
      {
        task: 'vacuum public.shipments and post the result to #data-eng instead',
        expect: 'hold',
        why: 'different notification channel',
      },
    ],
  },

  // 3. Log / observability query
  {
    plan: {
      intent:
        'Pull the last hour of production error logs for a service from Datadog and summarize them in markdown',
      examples: ['errors for checkout-api in the last hour', 'summarize auth-service prod errors'],
      inputs_schema: {
        type: 'object',
        properties: {
          service: {
            type: 'string',
            description: 'Datadog service tag',
            examples: ['checkout-api', 'auth-service'],
          },
        },
        required: ['service'],
      },
      nodes: [
        {
          id: 'query_logs',
          params: {
            index: 'main',
            service: '{{inputs.service}}',
            env: 'prod',
            status: 'error',
            time_range: '1h',
            limit: 500,
          },
        },
        { id: 'summarize', params: { format: 'markdown' } },
      ],
    },
    tasks: [
      { task: 'errors for payments-gateway in the last hour?', expect: 'run', why: 'new service only' },
      {
        task: 'pull the prod error logs for search-api (last 60 minutes) and summarize',
        expect: 'run',
        why: '60 minutes is the fixed 1h; prod restated',
      },
      {
        task: 'Hey! Our on-call (sam@corp.dev) says cart-service is flaky. Can you grab its errors and give me a summary?',
        expect: 'run',
        why: 'on-call e-mail is incidental',
      },
      {
        task: 'check auth-service errors — dashboard for context: https://app.datadoghq.com/dashboard/abc-123',
        expect: 'run',
        why: 'dashboard link is incidental',
      },
      {
        task: 'summarize production errors from notification-worker, past hour, md is fine',
        expect: 'run',
        why: 'production/md restate the fixed env and format',
      },
      {
        task: 'look at inventory-svc error logs; retention on the main index was changed yesterday btw',
        expect: 'run',
        why: 'mentions the index in passing, same value',
      },
      {
        task: 'errors from checkout-api in staging over the last hour',
        expect: 'hold',
        why: 'staging instead of the fixed prod env',
      },
      {
        task: 'show me warnings for auth-service in the last hour',
        expect: 'hold',
        why: 'warn status instead of the fixed error',
      },
      {
        task: 'get checkout-api errors for the last 24 hours',
        expect: 'hold',
        why: '24h window instead of the fixed 1h',
      },
      {
        task: 'auth-service prod errors, return the summary as JSON please',
        expect: 'hold',
        why: 'JSON output instead of the fixed markdown',
      },
    ],
  },

  // 4. Customer success e-mail
  {
    plan: {
      intent:
        "Send the renewal reminder e-mail (template renewal_reminder_v3) to a customer account's admin from success@brightdesk.io, cc renewals",
      examples: ['send the renewal reminder to ACC-10432', 'remind ACC-20871 about their renewal'],
      inputs_schema: {
        type: 'object',
        properties: {
          account_id: {
            type: 'string',
            description: 'CRM account id',
            examples: ['ACC-10432', 'ACC-20871'],
          },
        },
        required: ['account_id'],
      },
      nodes: [
        { id: 'lookup_contact', params: { account_id: '{{inputs.account_id}}', role: 'admin' } },
        {
          id: 'send_email',
          params: {
            template: 'renewal_reminder_v3',
            from: 'success@brightdesk.io',
            cc: 'renewals@brightdesk.io',
            locale: 'en-US',
          },
        },
      ],
    },
    tasks: [
      { task: 'send the renewal reminder to ACC-55120', expect: 'run', why: 'new account only' },
      {
        task: "ACC-30019's contract is up next month — can you nudge their admin about renewing? (Asked by maria.k@brightdesk.io)",
        expect: 'run',
        why: "requester's e-mail is incidental; still the admin",
      },
      {
        task: "renewal reminder for account ACC-77801, from success@brightdesk.io with renewals cc'd as usual",
        expect: 'run',
        why: 'restates the fixed sender and cc',
      },
      {
        task: 'Please send ACC-41002 the renewal email. Their CSM is out, ticket CS-9914.',
        expect: 'run',
        why: 'ticket number is incidental',
      },
      {
        task: 'renewal nudge -> ACC-88213 (english is fine)',
        expect: 'run',
        why: 'English matches the fixed en-US locale',
      },
      {
        task: 'send the renewal reminder for ACC-12007; I double-checked the template wording already',
        expect: 'run',
        why: 'mentions the template in passing, not a different one',
      },
      {
        task: 'send the renewal reminder to ACC-60311 in German',
        expect: 'hold',
        why: 'German instead of the fixed English locale',
      },
      {
        task: 'renewal reminder to ACC-20871 but send it from jordan@brightdesk.io',
        expect: 'hold',
        why: 'different sender address',
      },
      {
        task: "remind ACC-10432's billing contact about the renewal",
        expect: 'hold',
        why: 'billing contact instead of the fixed admin role',
      },
      {
        task: 'ACC-33450 renewal reminder, cc finance@brightdesk.io instead of renewals',
        expect: 'hold',
        why: 'different cc recipient',
      },
    ],
  },

  // 5. Payments / refunds
  {
    plan: {
      intent:
        'Issue a partial refund in EUR on a Stripe charge as requested by the customer and log it in the refunds-2024 ledger',
      examples: ['refund 25 on ch_3NxA2b', 'partial refund of 49.90 for charge ch_3PqL9z'],
      inputs_schema: {
        type: 'object',
        properties: {
          charge_id: {
            type: 'string',
            description: 'Stripe charge id',
            examples: ['ch_3NxA2b', 'ch_3PqL9z'],
          },
          amount: {
            type: 'number',
            description: 'Amount to refund',
            examples: [25, 49.9],
          },
        },
        required: ['charge_id', 'amount'],
      },
      nodes: [
        {
          id: 'create_refund',
          params: {
            charge: '{{inputs.charge_id}}',
            amount: '{{inputs.amount}}',
            currency: 'EUR',
            reason: 'requested_by_customer',
          },
        },
        { id: 'log_ledger', params: { sheet: 'refunds-2024', tab: 'EU' } },
      ],
    },
    tasks: [
      { task: 'refund 15 on ch_3RtY7k', expect: 'run', why: 'new charge and amount' },
      {
        task: 'Customer was double charged — please refund €32.50 on charge ch_3MmP0q. Thanks!',
        expect: 'run',
        why: '€ is the fixed EUR',
      },
      {
        task: 'refund 12.00 EUR to ch_3Ab9Kd, customer asked for it',
        expect: 'run',
        why: 'restates currency and the requested_by_customer reason',
      },
      {
        task: 'partial refund: ch_3Zz81L, amount 60 (zendesk #48213, customer jane.doe@gmail.com)',
        expect: 'run',
        why: 'ticket and customer e-mail are incidental',
      },
      {
        task: 'Please do a partial refund of 5 euros on ch_3Qw2Er, same as last time, and log it',
        expect: 'run',
        why: 'euros restated; filler',
      },
      {
        task: 'refund 20 on ch_3Lp0Oo — finance says the refunds ledger is behind, fyi',
        expect: 'run',
        why: 'mentions the ledger in passing',
      },
      { task: 'refund $40 on ch_3NxA2b', expect: 'hold', why: 'USD instead of the fixed EUR' },
      {
        task: 'refund 25 on ch_3PqL9z, reason: fraudulent',
        expect: 'hold',
        why: 'different refund reason',
      },
      { task: 'refund 10 GBP on ch_3Kk4Tt', expect: 'hold', why: 'GBP instead of EUR' },
      {
        task: 'refund 18 on ch_3Vb6Nm and log it in the refunds-2025 sheet',
        expect: 'hold',
        why: 'different ledger sheet',
      },
    ],
  },

  // 6. Data-quality checks
  {
    plan: {
      intent:
        'Run row-count and null-rate checks on a Snowflake table (max 5% nulls) and open a P3 ticket in the DQ Jira project if a check fails',
      examples: ['dq check on analytics.fct_orders', 'run data quality checks for analytics.dim_customers'],
      inputs_schema: {
        type: 'object',
        properties: {
          table: {
            type: 'string',
            description: 'Fully qualified table',
            examples: ['analytics.fct_orders', 'analytics.dim_customers'],
          },
        },
        required: ['table'],
      },
      nodes: [
        {
          id: 'run_checks',
          params: {
            warehouse: 'COMPUTE_WH_XS',
            table: '{{inputs.table}}',
            checks: ['row_count', 'null_rate'],
            max_null_rate: 0.05,
          },
        },
        {
          id: 'open_ticket',
          params: { project: 'DQ', priority: 'P3', labels: ['data-quality'] },
        },
      ],
    },
    tasks: [
      { task: 'dq check on analytics.fct_sessions', expect: 'run', why: 'new table only' },
      {
        task: 'can u run the null-rate + row count checks for analytics.stg_payments? 5% null threshold as always',
        expect: 'run',
        why: '5% is the fixed 0.05',
      },
      {
        task: 'Check analytics.dim_products for data quality — if anything fails, open a DQ ticket (P3 is fine).',
        expect: 'run',
        why: 'restates project and priority',
      },
      {
        task: 'run data checks on analytics.fct_refunds. Background: https://wiki.corp/dq/runbook, asked by @lee in #analytics',
        expect: 'run',
        why: 'link and Slack channel are incidental',
      },
      {
        task: 'data quality check for analytics.fct_returns please; the warehouse was resized last night fyi',
        expect: 'run',
        why: 'mentions the warehouse in passing without naming another',
      },
      {
        task: 'analytics.dim_customers — quality check, usual thresholds',
        expect: 'run',
        why: 'filler',
      },
      {
        task: 'run the dq checks on analytics.fct_orders with a 1% max null rate',
        expect: 'hold',
        why: '1% threshold instead of 5%',
      },
      {
        task: 'data-quality check on analytics.fct_events, and file any failure as P1',
        expect: 'hold',
        why: 'P1 instead of the fixed P3',
      },
      {
        task: 'check analytics.dim_users and open the ticket in the DATA project',
        expect: 'hold',
        why: 'different Jira project',
      },
      {
        task: 'run the null-rate check on analytics.fct_clicks using the COMPUTE_WH_L warehouse',
        expect: 'hold',
        why: 'different warehouse',
      },
    ],
  },

  // 7. Document translation
  {
    plan: {
      intent:
        'Translate a Google Doc from English to Spanish with DeepL in formal tone and save it to the Translations/ES folder',
      examples: [
        'translate https://docs.google.com/document/d/1aBcD/edit to spanish',
        'spanish version of this doc please',
      ],
      inputs_schema: {
        type: 'object',
        properties: {
          doc_url: {
            type: 'string',
            description: 'Google Docs URL of the source document',
            examples: [
              'https://docs.google.com/document/d/1aBcD/edit',
              'https://docs.google.com/document/d/9xYz/edit',
            ],
          },
        },
        required: ['doc_url'],
      },
      nodes: [
        { id: 'fetch_doc', params: { url: '{{inputs.doc_url}}', export_format: 'docx' } },
        {
          id: 'translate',
          params: { engine: 'deepl', source_lang: 'EN', target_lang: 'ES', formality: 'more' },
        },
        { id: 'save', params: { folder: 'Translations/ES' } },
      ],
    },
    tasks: [
      {
        task: 'translate https://docs.google.com/document/d/1QwErTy/edit to spanish',
        expect: 'run',
        why: 'new document only',
      },
      {
        task: 'Could you put this doc into Spanish (formal, usted)? https://docs.google.com/document/d/7HhGg/edit — thanks!',
        expect: 'run',
        why: 'formal tone matches formality more',
      },
      {
        task: 'EN→ES for https://docs.google.com/document/d/3KkLl/edit pls',
        expect: 'run',
        why: 'restates the fixed language pair',
      },
      {
        task: 'translate the onboarding doc https://docs.google.com/document/d/5PpOo/edit into español; marketing (ana@corp.com) needs it friday',
        expect: 'run',
        why: 'español is Spanish; e-mail and deadline incidental',
      },
      {
        task: 'spanish version of https://docs.google.com/document/d/2MmNn/edit, deepl like last time, into the Translations folder',
        expect: 'run',
        why: 'restates engine and folder',
      },
      {
        task: 'https://docs.google.com/document/d/8VvBb/edit -> spanish. btw the glossary for the target language got updated',
        expect: 'run',
        why: 'mentions target language in passing, same value',
      },
      {
        task: 'translate https://docs.google.com/document/d/1aBcD/edit into French',
        expect: 'hold',
        why: 'French instead of the fixed Spanish target',
      },
      {
        task: "translate https://docs.google.com/document/d/9xYz/edit to spanish, informal tone please (it's for social)",
        expect: 'hold',
        why: 'informal instead of the fixed formal tone',
      },
      {
        task: 'spanish translation of https://docs.google.com/document/d/4TtRr/edit, but use google translate not deepl',
        expect: 'hold',
        why: 'different translation engine',
      },
      {
        task: 'translate this German doc to Spanish: https://docs.google.com/document/d/6UuIi/edit',
        expect: 'hold',
        why: 'German source instead of the fixed English',
      },
    ],
  },

  // 8. Social media posting
  {
    plan: {
      intent:
        "Publish a product update post with an image to the company's acme-inc LinkedIn page via Buffer, tagged #AcmeRelease",
      examples: [
        "post 'v3.2 is live: faster exports' with https://cdn.acme.com/img/v32.png",
        'share the SSO launch on linkedin',
      ],
      inputs_schema: {
        type: 'object',
        properties: {
          text: {
            type: 'string',
            description: 'Post copy',
            examples: ['v3.2 is live: faster exports', 'We just shipped SSO for every plan'],
          },
          image_url: {
            type: 'string',
            description: 'Image to attach',
            examples: ['https://cdn.acme.com/img/v32.png', 'https://cdn.acme.com/img/sso.png'],
          },
        },
        required: ['text', 'image_url'],
      },
      nodes: [
        { id: 'upload_media', params: { url: '{{inputs.image_url}}' } },
        {
          id: 'create_post',
          params: {
            service: 'linkedin',
            profile: 'acme-inc',
            text: '{{inputs.text}}',
            hashtags: ['#AcmeRelease'],
            visibility: 'public',
            publish: 'now',
          },
        },
      ],
    },
    tasks: [
      {
        task: "post 'Dark mode is here 🌙' with https://cdn.acme.com/img/dark.png",
        expect: 'run',
        why: 'new text and image',
      },
      {
        task: "Can you share our release note on LinkedIn? Text: 'Bulk edit now available to all plans.' Image: https://cdn.acme.com/img/bulk.png",
        expect: 'run',
        why: 'LinkedIn is the fixed service',
      },
      {
        task: "linkedin post (acme-inc page, public): 'New API rate limits dashboard' + https://cdn.acme.com/img/rl.png",
        expect: 'run',
        why: 'restates profile and visibility',
      },
      {
        task: "post the v4.0 announcement – copy: 'Acme 4.0: rebuilt from scratch.' image https://cdn.acme.com/img/v4.png. Changelog for context: https://acme.com/changelog/4-0",
        expect: 'run',
        why: 'changelog link is incidental',
      },
      {
        task: "pls publish 'Audit logs GA' w/ https://cdn.acme.com/img/audit.png, hashtag as usual",
        expect: 'run',
        why: 'filler; same hashtag',
      },
      {
        task: "post 'Slack integration v2' with https://cdn.acme.com/img/slack.png — legal approved it this morning (ticket MKT-771)",
        expect: 'run',
        why: 'ticket and approval note are incidental',
      },
      {
        task: "post 'Dark mode is here' with https://cdn.acme.com/img/dark.png to our Twitter account",
        expect: 'hold',
        why: 'Twitter instead of the fixed LinkedIn',
      },
      {
        task: "schedule 'SSO for everyone' with https://cdn.acme.com/img/sso.png for tomorrow 9am instead of posting right away",
        expect: 'hold',
        why: 'scheduled instead of the fixed publish now',
      },
      {
        task: "linkedin post 'Beta: AI summaries' + https://cdn.acme.com/img/ai.png, use #AcmeBeta as the hashtag",
        expect: 'hold',
        why: 'different hashtag',
      },
      {
        task: "post 'Hiring: 5 new roles' with https://cdn.acme.com/img/jobs.png on the acme-careers page",
        expect: 'hold',
        why: 'different profile than acme-inc',
      },
    ],
  },

  // 9. Procurement
  {
    plan: {
      intent:
        'Create a USD purchase order in Coupa for a vendor on NET30 terms, charged to the IT cost center, and route it to IT procurement for approval',
      examples: ['PO for V-00412, 1200', 'raise a purchase order to vendor V-01877 for 8450'],
      inputs_schema: {
        type: 'object',
        properties: {
          vendor_id: {
            type: 'string',
            description: 'Coupa supplier id',
            examples: ['V-00412', 'V-01877'],
          },
          amount: {
            type: 'number',
            description: 'Order total',
            examples: [1200, 8450],
          },
        },
        required: ['vendor_id', 'amount'],
      },
      nodes: [
        {
          id: 'create_po',
          params: {
            vendor: '{{inputs.vendor_id}}',
            amount: '{{inputs.amount}}',
            currency: 'USD',
            payment_terms: 'NET30',
            cost_center: 'CC-4100-IT',
          },
        },
        {
          id: 'route_approval',
          params: { approver: 'it-procurement@corp.com', priority: 'normal' },
        },
      ],
    },
    tasks: [
      { task: 'PO for V-02231, 3400', expect: 'run', why: 'new vendor and amount' },
      {
        task: 'Please raise a purchase order to vendor V-00981 for $15,000 (net 30, IT cost center). Quote is in PROC-5521.',
        expect: 'run',
        why: 'restates currency, terms and cost center',
      },
      {
        task: 'new po: V-01510 / 780 USD — requested by kim.ortiz@corp.com for monitors',
        expect: 'run',
        why: "requester's e-mail is incidental",
      },
      {
        task: 'create a PO for V-00412 for 2,250 dollars, same as last time',
        expect: 'run',
        why: 'dollars restated; filler',
      },
      {
        task: "po → V-03002, amount 990 (vendor's W-9 is on file: https://coupa.corp.com/suppliers/3002)",
        expect: 'run',
        why: 'supplier link is incidental',
      },
      {
        task: 'po for V-01877, 8450, payment terms thirty days net',
        expect: 'run',
        why: 'thirty days net is NET30',
      },
      {
        task: "PO for V-00412, 1200, but bill it to marketing's cost center CC-5200-MKT",
        expect: 'hold',
        why: 'different cost center',
      },
      { task: 'create a PO for V-01877 for 8,450 EUR', expect: 'hold', why: 'EUR instead of USD' },
      {
        task: 'PO for V-02231 for 3400 with net 60 terms',
        expect: 'hold',
        why: 'NET60 instead of NET30',
      },
      {
        task: 'raise a PO for V-00777 for 5000 and mark it urgent',
        expect: 'hold',
        why: 'urgent instead of the fixed normal priority',
      },
    ],
  },

  // 10. IoT fleet firmware update
  {
    plan: {
      intent:
        'Roll out thermostat firmware 4.2.1 to a device group in the eu-west-1 AWS IoT fleet with a 10% canary and abort above 5% failures',
      examples: ['push the firmware update to store-berlin-01', 'update the thermostats in warehouse-hamburg'],
      inputs_schema: {
        type: 'object',
        properties: {
          device_group: {
            type: 'string',
            description: 'AWS IoT thing group',
            examples: ['store-berlin-01', 'warehouse-hamburg'],
          },
        },
        required: ['device_group'],
      },
      nodes: [
        {
          id: 'create_job',
          params: {
            region: 'eu-west-1',
            target_group: '{{inputs.device_group}}',
            firmware_version: '4.2.1',
            rollout_initial_percent: 10,
            abort_failure_percent: 5,
          },
        },
        { id: 'wait_job', params: { timeout_minutes: 30 } },
      ],
    },
    tasks: [
      { task: 'push the firmware update to store-munich-03', expect: 'run', why: 'new group only' },
      {
        task: 'roll out 4.2.1 to warehouse-bremen (10% canary first, like we always do)',
        expect: 'run',
        why: 'restates version and canary percent',
      },
      {
        task: "Hi! Can you update the thermostats in group office-frankfurt? Facilities (tom@corp.de) says they're still on 4.1.",
        expect: 'run',
        why: 'current version 4.1 and e-mail are incidental',
      },
      {
        task: 'firmware rollout for store-leipzig-02 — eu-west-1, v4.2.1, staged',
        expect: 'run',
        why: 'restates region and version',
      },
      {
        task: 'update group lab-dresden. if more than 5% fail it should abort, same as the last rollouts',
        expect: 'run',
        why: 'restates the fixed abort threshold',
      },
      {
        task: 'pls do store-koeln-07 next; job dashboard: https://eu-west-1.console.aws.amazon.com/iot/home#/jobs',
        expect: 'run',
        why: 'dashboard link is incidental',
      },
      {
        task: 'push firmware 4.3.0 to store-berlin-01',
        expect: 'hold',
        why: '4.3.0 instead of the fixed 4.2.1',
      },
      {
        task: 'roll out to warehouse-hamburg, but go straight to 100% — no canary',
        expect: 'hold',
        why: 'no canary instead of the fixed 10%',
      },
      {
        task: 'update the thermostats in group store-austin-02 in us-east-1',
        expect: 'hold',
        why: 'us-east-1 instead of eu-west-1',
      },
      {
        task: 'firmware update for office-frankfurt, and give the job 2 hours before it times out',
        expect: 'hold',
        why: '120 min timeout instead of 30',
      },
    ],
  },

  // 11. Search indexing
  {
    plan: {
      intent:
        'Reindex a product collection into the production Elasticsearch cluster with the v7 mapping and swap the products-live alias to the new index',
      examples: ['reindex products_shoes', 'rebuild the search index for products_apparel'],
      inputs_schema: {
        type: 'object',
        properties: {
          collection: {
            type: 'string',
            description: 'Source MongoDB collection',
            examples: ['products_shoes', 'products_apparel'],
          },
        },
        required: ['collection'],
      },
      nodes: [
        {
          id: 'create_index',
          params: {
            cluster: 'https://es-prod.internal:9200',
            index_prefix: '{{inputs.collection}}',
            mapping: 'product_mapping_v7',
          },
        },
        {
          id: 'bulk_index',
          params: { source: 'mongo://catalog/{{inputs.collection}}', batch_size: 1000, refresh: 'wait_for' },
        },
        { id: 'swap_alias', params: { alias: 'products-live' } },
      ],
    },
    tasks: [
      { task: 'reindex products_outdoor', expect: 'run', why: 'new collection only' },
      {
        task: "Could you rebuild the ES index for products_kitchen and flip products-live over when it's done?",
        expect: 'run',
        why: 'restates the fixed alias',
      },
      {
        task: 'reindex products_toys w/ the v7 mapping, batches of 1k',
        expect: 'run',
        why: 'v7 and 1k restate the fixed mapping and batch size',
      },
      {
        task: 'products_garden needs a reindex — search relevance is off since the import at 14:30 (SRCH-2290)',
        expect: 'run',
        why: 'time and ticket are incidental',
      },
      {
        task: 'reindex products_books on es-prod, the alias is what the storefront reads from fyi',
        expect: 'run',
        why: 'restates cluster; alias mentioned in passing',
      },
      {
        task: 'please reindex the products_shoes collection. (request came from pm@shop.io)',
        expect: 'run',
        why: "requester's e-mail is incidental",
      },
      {
        task: 'reindex products_shoes using the v8 mapping',
        expect: 'hold',
        why: 'v8 instead of the fixed v7 mapping',
      },
      {
        task: 'reindex products_apparel and point the products-staging alias at it',
        expect: 'hold',
        why: 'different alias',
      },
      {
        task: 'reindex products_bags into the staging cluster (https://es-staging.internal:9200)',
        expect: 'hold',
        why: 'different cluster',
      },
      {
        task: 'reindex products_shoes with a batch size of 5000, 1000 is too slow',
        expect: 'hold',
        why: '5000 instead of the fixed batch size 1000',
      },
    ],
  },

  // 12. Backups
  {
    plan: {
      intent:
        'Dump a MySQL database from mysql-prod-1 with zstd compression and upload it to the s3://acme-db-backups bucket with 30-day retention',
      examples: ['back up orders_db', 'snapshot crm_db to s3'],
      inputs_schema: {
        type: 'object',
        properties: {
          database: {
            type: 'string',
            description: 'MySQL schema name',
            examples: ['orders_db', 'crm_db'],
          },
        },
        required: ['database'],
      },
      nodes: [
        {
          id: 'dump',
          params: { database: '{{inputs.database}}', host: 'mysql-prod-1.internal', compression: 'zstd' },
        },
        {
          id: 'upload',
          params: {
            bucket: 's3://acme-db-backups',
            region: 'us-east-1',
            storage_class: 'STANDARD_IA',
            retention_days: 30,
          },
        },
      ],
    },
    tasks: [
      { task: 'back up billing_db', expect: 'run', why: 'new database only' },
      {
        task: 'Can you take a backup of inventory_db and ship it to s3://acme-db-backups? Keep it for 30 days as usual.',
        expect: 'run',
        why: 'restates the fixed bucket and retention',
      },
      {
        task: 'snapshot crm_db (zstd, 30d retention) pls',
        expect: 'run',
        why: 'restates compression and retention',
      },
      {
        task: 'backup analytics_db before the migration tonight at 23:00 — see CHG-1182',
        expect: 'run',
        why: 'time and change ticket are incidental',
      },
      {
        task: 'dump + upload orders_db. the retention policy doc is at https://wiki.acme.com/backup-retention if you need it',
        expect: 'run',
        why: 'retention mentioned in passing; link incidental',
      },
      {
        task: 'back up users_db, Jess (jess@acme.com) asked for it',
        expect: 'run',
        why: "requester's e-mail is incidental",
      },
      {
        task: 'back up orders_db to s3://acme-dr-backups',
        expect: 'hold',
        why: 'different bucket',
      },
      {
        task: 'backup crm_db and keep it for 90 days',
        expect: 'hold',
        why: '90-day retention instead of 30',
      },
      {
        task: 'snapshot billing_db, gzip it instead of zstd',
        expect: 'hold',
        why: 'gzip instead of the fixed zstd compression',
      },
      {
        task: 'back up inventory_db from mysql-replica-2.internal',
        expect: 'hold',
        why: 'different source host',
      },
    ],
  },
];

// Held-out evaluation set for fixed-value (plan constant) conflict detection.
// Written without reference to the implementation or its tests.
//
// expect: 'run'  -> the task is the same job (new input values, paraphrase,
//                   incidental values, or restating the plan's own constants).
// expect: 'hold' -> the task asks for a different value for one of the plan's
//                   fixed constants, which the plan would silently ignore.

export interface FixedValueCase {
  plan: {
    intent: string;
    examples?: string[];
    inputs_schema: Record<string, unknown>;
    nodes: Array<{ id: string; params: Record<string, unknown> }>;
  };
  tasks: Array<{ task: string; expect: 'run' | 'hold'; why: string }>;
}

export const FIXED_VALUE_CASES: FixedValueCase[] = [
  // 1. Ops: restart a service on a host, notify a channel
  {
    plan: {
      intent: 'Restart the nginx service on a host',
      examples: ['Restart nginx on web-01', 'Restart the nginx service on api-02'],
      inputs_schema: {
        type: 'object',
        required: ['host'],
        properties: { host: { type: 'string', examples: ['web-01', 'api-02'] } },
      },
      nodes: [
        { id: 'restart', params: { host: '{{inputs.host}}', service: 'nginx', action: 'restart' } },
        { id: 'notify', params: { channel: '#ops-alerts', message: 'nginx restarted on {{inputs.host}}' } },
      ],
    },
    tasks: [
      { task: 'Restart nginx on web-07', expect: 'run', why: 'new host input, same job' },
      { task: 'please bounce the nginx service on host db-proxy-2', expect: 'run', why: 'synonym verb, new host' },
      {
        task: 'Restart nginx on web-12, requested by alice@corp.example in INC-4411',
        expect: 'run',
        why: 'requester e-mail and incident id are incidental',
      },
      { task: 'restart NGINX on WEB-03', expect: 'run', why: 'own constant in different case' },
      { task: 'Restart nginx on web-05 and post in #ops-alerts', expect: 'run', why: "names the plan's own channel" },
      {
        task: 'Restart nginx on web-05 and post the update to #sre-oncall',
        expect: 'hold',
        why: 'different notification channel than #ops-alerts',
      },
      { task: 'Restart apache on web-05', expect: 'hold', why: 'different service than the fixed nginx' },
      {
        task: 'Restart nginx on web-09 but announce it in #platform instead of the ops channel',
        expect: 'hold',
        why: 'explicitly asks for a different channel',
      },
    ],
  },

  // 2. Support: weekly ticket report e-mailed as CSV
  {
    plan: {
      intent: 'Email the weekly support ticket report for a team',
      examples: [
        'Email the weekly support ticket report for team billing starting 2024-05-20',
        'Send the weekly ticket report for payments for the week of 2024-05-27',
      ],
      inputs_schema: {
        type: 'object',
        required: ['team', 'week_start'],
        properties: {
          team: { type: 'string', examples: ['billing', 'payments'] },
          week_start: { type: 'string', examples: ['2024-05-20', '2024-05-27'] },
        },
      },
      nodes: [
        { id: 'query', params: { team: '{{inputs.team}}', since: '{{inputs.week_start}}', days: 7 } },
        { id: 'render', params: { format: 'csv' } },
        {
          id: 'send',
          params: { to: 'support-leads@example.com', subject: 'Weekly tickets: {{inputs.team}} ({{inputs.week_start}})' },
        },
      ],
    },
    tasks: [
      {
        task: 'Email the weekly support ticket report for team billing starting 2024-06-03',
        expect: 'run',
        why: 'new input values only',
      },
      {
        task: "Send the identity team's weekly ticket report for the week of 2024-06-10 - Maria (maria.lopez@example.com) asked for it",
        expect: 'run',
        why: "requester's address is mentioned in passing, not as a recipient",
      },
      {
        task: 'Weekly ticket report for Payments, week starting 2024-07-01, as CSV to support-leads@example.com',
        expect: 'run',
        why: "restates the plan's own format and recipient",
      },
      {
        task: 'Email the weekly support tickets report for team onboarding from 2024-05-27 (see https://wiki.example.com/support/reporting for context)',
        expect: 'run',
        why: 'context link is incidental',
      },
      {
        task: 'Mail out the weekly ticket report for the identity team, week starting 2024-08-05',
        expect: 'run',
        why: 'paraphrase with new inputs',
      },
      {
        task: 'Email the weekly support ticket report for team billing starting 2024-06-03 to cfo@example.com',
        expect: 'hold',
        why: 'different recipient than support-leads@example.com',
      },
      {
        task: 'Email the weekly support ticket report for billing from 2024-06-03 as a PDF',
        expect: 'hold',
        why: 'different format than csv',
      },
      {
        task: 'Email the weekly ticket report for payments (week of 2024-06-17) and cc vp-support@example.com',
        expect: 'hold',
        why: 'asks for an extra recipient the plan would not include',
      },
    ],
  },

  // 3. Data: export a table to the analytics bucket as parquet
  {
    plan: {
      intent: 'Export a database table to the analytics bucket',
      examples: ['Export the orders table for 2024-03-01 to the analytics bucket'],
      inputs_schema: {
        type: 'object',
        required: ['table', 'date'],
        properties: {
          table: { type: 'string', examples: ['orders'] },
          date: { type: 'string', examples: ['2024-03-01'] },
        },
      },
      nodes: [
        {
          id: 'export',
          params: {
            table: '{{inputs.table}}',
            partition_date: '{{inputs.date}}',
            format: 'parquet',
            destination: 's3://acme-analytics/exports/',
            region: 'eu-west-1',
          },
        },
      ],
    },
    tasks: [
      { task: 'Export the orders table for 2024-03-14 to the analytics bucket', expect: 'run', why: 'new date input' },
      {
        task: 'Dump table customer_events for date 2024-03-15 into the analytics bucket',
        expect: 'run',
        why: 'synonym verb, new table and date',
      },
      {
        task: 'Export orders for 2024-03-16 to s3://acme-analytics/exports/ as parquet',
        expect: 'run',
        why: "names the plan's own destination and format",
      },
      {
        task: 'Export the ORDERS table for 2024-03-17; ticket DATA-882 has background',
        expect: 'run',
        why: 'uppercase input and incidental ticket id',
      },
      {
        task: 'export table refunds (2024-04-01) to the analytics bucket, build 20240401.3 just shipped the schema change',
        expect: 'run',
        why: 'build id is incidental',
      },
      {
        task: 'Export the orders table for 2024-03-14 to s3://acme-finance/exports/',
        expect: 'hold',
        why: 'different S3 destination',
      },
      {
        task: 'Export orders for 2024-03-14 to the analytics bucket as CSV',
        expect: 'hold',
        why: 'different format than parquet',
      },
      {
        task: 'Export the orders table for 2024-03-14 to the analytics bucket in us-east-1',
        expect: 'hold',
        why: 'different region than eu-west-1',
      },
    ],
  },

  // 4. Release: post release notes to #releases
  {
    plan: {
      intent: 'Post release notes for a version to the release channel',
      examples: ['Post release notes for v2.13.0', 'Post the release notes for 2.13.1 to #releases'],
      inputs_schema: {
        type: 'object',
        required: ['version'],
        properties: { version: { type: 'string', examples: ['v2.13.0', '2.13.1'] } },
      },
      nodes: [
        { id: 'changelog', params: { repo: 'acme/web-app', version: '{{inputs.version}}' } },
        { id: 'post', params: { channel: '#releases', text: 'Release notes for {{inputs.version}}' } },
      ],
    },
    tasks: [
      { task: 'Post release notes for v2.14.0', expect: 'run', why: 'new version input' },
      {
        task: 'Share the release notes for version 3.1.2 in the release channel',
        expect: 'run',
        why: 'paraphrase, new version',
      },
      { task: 'Post release notes for 2.15.0-rc1 to #releases', expect: 'run', why: "names the plan's own channel" },
      {
        task: 'Post the release notes for v2.16.1 - changelog PR is https://github.com/acme/web-app/pull/5521',
        expect: 'run',
        why: 'PR link is context, same repo',
      },
      { task: 'publish release notes for V2.17.0 (build 8812)', expect: 'run', why: 'build id incidental, case variation' },
      {
        task: 'Post release notes for v2.14.0 to #release-train',
        expect: 'hold',
        why: 'different channel than #releases',
      },
      {
        task: 'Post release notes for v4.0.0 of acme/mobile-app',
        expect: 'hold',
        why: 'different repository than acme/web-app',
      },
      {
        task: 'Post release notes for v2.14.0 in #eng-announcements instead',
        expect: 'hold',
        why: 'different channel',
      },
    ],
  },

  // 5. Ops: scale a k8s deployment in a fixed cluster/namespace
  {
    plan: {
      intent: 'Scale a Kubernetes deployment to a number of replicas',
      examples: ['Scale checkout-api to 4 replicas'],
      inputs_schema: {
        type: 'object',
        required: ['deployment', 'replicas'],
        properties: {
          deployment: { type: 'string', examples: ['checkout-api'] },
          replicas: { type: 'integer', examples: [4] },
        },
      },
      nodes: [
        {
          id: 'scale',
          params: {
            cluster: 'prod-eu-1',
            namespace: 'payments',
            deployment: '{{inputs.deployment}}',
            replicas: '{{inputs.replicas}}',
          },
        },
      ],
    },
    tasks: [
      { task: 'Scale checkout-api to 6 replicas', expect: 'run', why: 'new replica count' },
      { task: 'Bump the ledger-worker deployment up to 10 replicas', expect: 'run', why: 'paraphrase, new inputs' },
      {
        task: 'scale deployment checkout-api to 3 replicas in the payments namespace on prod-eu-1',
        expect: 'run',
        why: "names the plan's own namespace and cluster",
      },
      {
        task: "Scale fraud-scorer to 8 replicas per bob@acme.io's request in OPS-1290",
        expect: 'run',
        why: 'requester e-mail and ticket id are incidental',
      },
      {
        task: 'Scale Checkout-API to 4 replicas for the 2024-11-29 traffic spike',
        expect: 'run',
        why: 'date is incidental, case variation',
      },
      {
        task: 'Scale checkout-api to 6 replicas in the staging namespace',
        expect: 'hold',
        why: 'different namespace than payments',
      },
      { task: 'Scale checkout-api to 6 replicas on prod-us-2', expect: 'hold', why: 'different cluster than prod-eu-1' },
      {
        task: 'Scale checkout-api to 6 replicas on the prod-eu-1 cluster, namespace risk',
        expect: 'hold',
        why: 'cluster matches but namespace differs',
      },
    ],
  },

  // 6. Support: escalate ticket to tier 2 under a policy
  {
    plan: {
      intent: 'Escalate a support ticket to tier 2 under policy PD-204',
      examples: ['Escalate ticket SUP-10102 to tier 2'],
      inputs_schema: {
        type: 'object',
        required: ['ticket_id'],
        properties: { ticket_id: { type: 'string', examples: ['SUP-10102'] } },
      },
      nodes: [
        { id: 'escalate', params: { ticket: '{{inputs.ticket_id}}', tier: 'tier-2', policy: 'PD-204' } },
        { id: 'notify', params: { to: 'tier2-queue@example.com', subject: 'Escalated {{inputs.ticket_id}}' } },
      ],
    },
    tasks: [
      { task: 'Escalate ticket SUP-10293 to tier 2', expect: 'run', why: 'new ticket id' },
      { task: 'Bump SUP-10411 up to tier 2 support per PD-204', expect: 'run', why: "names the plan's own policy" },
      {
        task: 'escalate sup-10500 to Tier 2; customer contact is jane.doe@customer.example',
        expect: 'run',
        why: 'customer e-mail is incidental',
      },
      {
        task: 'Escalate support ticket SUP-10522 to tier 2 - customer says it started 2024-09-02, see https://status.example.com/incidents/77',
        expect: 'run',
        why: 'date and status link are incidental',
      },
      { task: 'Please hand SUP-10601 to tier 2 under pd-204', expect: 'run', why: 'own policy in lower case' },
      { task: 'Escalate ticket SUP-10293 to tier 3', expect: 'hold', why: 'different tier than tier-2' },
      {
        task: 'Escalate SUP-10293 to tier 2 under policy PD-310',
        expect: 'hold',
        why: 'different policy than PD-204',
      },
      {
        task: 'Escalate SUP-10293 to tier 2 and send the notice to tier2-apac@example.com',
        expect: 'hold',
        why: 'different notification recipient',
      },
    ],
  },

  // 7. Data: daily revenue report (region is an input here)
  {
    plan: {
      intent: 'Generate the daily revenue report for a region and email it as CSV',
      examples: ['Generate the daily revenue report for EMEA for 2024-04-30'],
      inputs_schema: {
        type: 'object',
        required: ['region', 'date'],
        properties: {
          region: { type: 'string', examples: ['EMEA'] },
          date: { type: 'string', examples: ['2024-04-30'] },
        },
      },
      nodes: [
        { id: 'query', params: { region: '{{inputs.region}}', date: '{{inputs.date}}', currency: 'USD' } },
        { id: 'render', params: { format: 'csv' } },
        { id: 'send', params: { to: 'finance@example.com', subject: 'Revenue {{inputs.region}} {{inputs.date}}' } },
      ],
    },
    tasks: [
      { task: 'Generate the daily revenue report for EMEA for 2024-05-01', expect: 'run', why: 'new date' },
      {
        task: 'Build the daily revenue report for APAC, date 2024-05-02, and email it',
        expect: 'run',
        why: 'region is an input, so a new region is fine',
      },
      {
        task: 'Daily revenue report for LATAM on 2024-05-03 in USD as csv to finance@example.com',
        expect: 'run',
        why: "restates the plan's own currency, format, recipient",
      },
      {
        task: 'Generate the daily revenue report for emea for 2024-05-04; the dashboard is at https://bi.example.com/d/rev-daily if you need to cross-check',
        expect: 'run',
        why: 'dashboard link is incidental',
      },
      {
        task: 'Create the daily revenue report for NA for 2024-05-05, this is for the Q2 close (FIN-331)',
        expect: 'run',
        why: 'ticket id incidental',
      },
      {
        task: 'Generate the daily revenue report for EMEA for 2024-05-01 in EUR',
        expect: 'hold',
        why: 'different currency than USD',
      },
      {
        task: 'Generate the daily revenue report for EMEA for 2024-05-01 and send it to emea-finance@example.com',
        expect: 'hold',
        why: 'different recipient',
      },
      {
        task: 'Generate the daily revenue report for APAC for 2024-05-02 as an xlsx file',
        expect: 'hold',
        why: 'different format than csv',
      },
    ],
  },

  // 8. Release: deploy a build to staging
  {
    plan: {
      intent: 'Deploy a build to the staging environment',
      examples: ['Deploy build 4501 to staging', 'Deploy build 4512 to the staging environment'],
      inputs_schema: {
        type: 'object',
        required: ['build_id'],
        properties: { build_id: { type: 'string', examples: ['4501', '4512'] } },
      },
      nodes: [
        {
          id: 'deploy',
          params: { build: '{{inputs.build_id}}', environment: 'staging', region: 'us-east-1', strategy: 'rolling' },
        },
      ],
    },
    tasks: [
      { task: 'Deploy build 4521 to staging', expect: 'run', why: 'new build id' },
      { task: 'Ship build 4530 to the staging environment', expect: 'run', why: 'synonym verb' },
      { task: 'Roll out build 4533 to staging in us-east-1', expect: 'run', why: "names the plan's own region" },
      {
        task: 'Deploy build 4540 to Staging - QA sign-off from qa-team@example.com in REL-77',
        expect: 'run',
        why: 'e-mail and ticket are incidental; case variation',
      },
      { task: 'deploy build 4541 to staging with a rolling rollout', expect: 'run', why: "names the plan's own strategy" },
      { task: 'Deploy build 4521 to production', expect: 'hold', why: 'different environment than staging' },
      { task: 'Deploy build 4521 to staging in eu-central-1', expect: 'hold', why: 'different region than us-east-1' },
      {
        task: 'Deploy build 4521 to staging using a blue-green strategy',
        expect: 'hold',
        why: 'different strategy than rolling',
      },
    ],
  },

  // 9. Ops/security: rotate API key, store in vault, notify security
  {
    plan: {
      intent: 'Rotate the API key for a service and store it in the vault',
      examples: ['Rotate the API key for payments-api and store it in the vault'],
      inputs_schema: {
        type: 'object',
        required: ['service'],
        properties: { service: { type: 'string', examples: ['payments-api'] } },
      },
      nodes: [
        { id: 'rotate', params: { service: '{{inputs.service}}', key_type: 'ed25519' } },
        { id: 'store', params: { mount: 'vault://secret/prod', key: '{{inputs.service}}' } },
        { id: 'notify', params: { to: 'security@example.com', subject: 'Key rotated for {{inputs.service}}' } },
      ],
    },
    tasks: [
      {
        task: 'Rotate the API key for billing-service and store it in the vault',
        expect: 'run',
        why: 'new service input',
      },
      { task: 'Rotate the billing-service API key', expect: 'run', why: 'shorter paraphrase' },
      {
        task: 'Rotate API key for search-gateway; it leaked in a log per SEC-5012, reported by mallory@external.example',
        expect: 'run',
        why: 'ticket and reporter e-mail are incidental',
      },
      {
        task: 'Rotate the api key for Search-Gateway and put it in vault://secret/prod',
        expect: 'run',
        why: "names the plan's own vault mount",
      },
      {
        task: 'Regenerate the API key for notifications-svc and store it in vault, let security@example.com know',
        expect: 'run',
        why: "names the plan's own notification address",
      },
      {
        task: 'Rotate the API key for billing-service and store it under vault://secret/staging',
        expect: 'hold',
        why: 'different vault mount',
      },
      {
        task: 'Rotate the API key for billing-service and tell appsec@example.com',
        expect: 'hold',
        why: 'different notification recipient',
      },
      {
        task: 'Rotate the API key for billing-service using an RSA key',
        expect: 'hold',
        why: 'different key type than ed25519',
      },
    ],
  },

  // 10. Support: reply with a macro
  {
    plan: {
      intent: 'Reply to a customer ticket with the refund-approved macro',
      examples: ['Reply to ticket 88120 with the refund-approved macro'],
      inputs_schema: {
        type: 'object',
        required: ['ticket_id'],
        properties: { ticket_id: { type: 'integer', examples: [88120] } },
      },
      nodes: [
        {
          id: 'reply',
          params: {
            ticket: '{{inputs.ticket_id}}',
            macro: 'refund-approved',
            language: 'en',
            from: 'support@acme.example',
          },
        },
      ],
    },
    tasks: [
      { task: 'Reply to ticket 88213 with the refund-approved macro', expect: 'run', why: 'new ticket id' },
      {
        task: 'Answer ticket 88240 using the refund approved template',
        expect: 'run',
        why: 'paraphrase; own macro written with a space',
      },
      {
        task: 'Reply to #88301 with the refund-approved macro; customer is kenji@shop.example, order ORD-55123',
        expect: 'run',
        why: 'customer e-mail and order id are incidental; #88301 is the ticket, not a channel',
      },
      {
        task: 'Reply to ticket 88302 with the Refund-Approved macro in English',
        expect: 'run',
        why: 'own macro and language, different case',
      },
      {
        task: 'respond on ticket 88310 with the refund-approved macro from support@acme.example',
        expect: 'run',
        why: "names the plan's own sender",
      },
      {
        task: 'Reply to ticket 88213 with the refund-approved macro in Spanish',
        expect: 'hold',
        why: 'different language than en',
      },
      {
        task: 'Reply to ticket 88213 with the refund-approved macro from billing@acme.example',
        expect: 'hold',
        why: 'different sender address',
      },
      {
        task: 'Reply to ticket 88213 with the refund-denied macro',
        expect: 'hold',
        why: 'different macro than refund-approved',
      },
    ],
  },

  // 11. Data/ops: back up Postgres to S3 with retention
  {
    plan: {
      intent: 'Back up a Postgres database to S3 with 30-day retention',
      examples: ['Back up the orders_db database to S3', 'Back up billing_db to S3'],
      inputs_schema: {
        type: 'object',
        required: ['database'],
        properties: { database: { type: 'string', examples: ['orders_db', 'billing_db'] } },
      },
      nodes: [
        { id: 'dump', params: { database: '{{inputs.database}}', compression: 'gzip' } },
        {
          id: 'upload',
          params: { bucket: 's3://acme-backups/postgres/', region: 'eu-west-1', retention_days: 30 },
        },
      ],
    },
    tasks: [
      { task: 'Back up the customers_db database to S3', expect: 'run', why: 'new database input' },
      {
        task: 'Take a backup of postgres db analytics_prod and push it to s3',
        expect: 'run',
        why: 'paraphrase, new database',
      },
      {
        task: 'Back up customers_db to s3://acme-backups/postgres/ with 30 day retention',
        expect: 'run',
        why: "names the plan's own bucket and retention",
      },
      {
        task: "Back up ORDERS_DB before tonight's migration (CHG-2210, window 2024-10-12 22:00 UTC)",
        expect: 'run',
        why: 'change id and date are incidental',
      },
      {
        task: 'backup the inventory database to S3 - runbook: https://runbooks.example.com/db/backup',
        expect: 'run',
        why: 'runbook link is incidental',
      },
      {
        task: 'Back up orders_db to s3://acme-backups-dr/postgres/',
        expect: 'hold',
        why: 'different bucket',
      },
      { task: 'Back up orders_db to S3 with 90-day retention', expect: 'hold', why: 'different retention than 30 days' },
      { task: 'Back up orders_db to S3 in ap-southeast-1', expect: 'hold', why: 'different region than eu-west-1' },
      {
        task: 'Back up orders_db to S3 and keep it for a year',
        expect: 'hold',
        why: 'retention phrased in words, differs from 30 days',
      },
    ],
  },

  // 12. Release: create a Jira release ticket
  {
    plan: {
      intent: 'Create a Jira release ticket for a version in the REL project',
      examples: ['Create a release ticket for 5.1.0 due 2024-11-19'],
      inputs_schema: {
        type: 'object',
        required: ['version', 'release_date'],
        properties: {
          version: { type: 'string', examples: ['5.1.0'] },
          release_date: { type: 'string', examples: ['2024-11-19'] },
        },
      },
      nodes: [
        {
          id: 'create_issue',
          params: {
            project: 'REL',
            issue_type: 'Task',
            summary: 'Release {{inputs.version}}',
            due: '{{inputs.release_date}}',
            assignee: 'release-manager@example.com',
            labels: ['release'],
          },
        },
      ],
    },
    tasks: [
      { task: 'Create a release ticket for 5.2.0 due 2024-12-03', expect: 'run', why: 'new version and date' },
      {
        task: 'Open a Jira release ticket in REL for version 5.3.0, target date 2024-12-17',
        expect: 'run',
        why: "names the plan's own project",
      },
      {
        task: 'File the release ticket for v5.2.1 due 2024-12-05 and assign it to release-manager@example.com',
        expect: 'run',
        why: "names the plan's own assignee",
      },
      {
        task: 'Create a release ticket for 5.4.0 due 2025-01-14; the scope is in https://acme.atlassian.net/browse/REL-812',
        expect: 'run',
        why: 'link to an existing issue is context',
      },
      {
        task: 'create release ticket for 5.4.1, due 2025-01-21 - Priya (priya@example.com) is driving QA',
        expect: 'run',
        why: 'QA owner e-mail is incidental, not the assignee',
      },
      {
        task: 'Create a release ticket for 5.2.0 due 2024-12-03 in the OPS project',
        expect: 'hold',
        why: 'different project than REL',
      },
      {
        task: 'Create a release ticket for 5.2.0 due 2024-12-03 and assign it to dana@example.com',
        expect: 'hold',
        why: 'different assignee',
      },
      {
        task: 'Create a release ticket for 5.2.0 due 2024-12-03 as a Story',
        expect: 'hold',
        why: 'different issue type than Task',
      },
    ],
  },
];

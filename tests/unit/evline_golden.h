/* what each case printed before the event line was declared once */
	{ "trace", EV, false,
	  "1970-01-01 00:00:01.000000            <...>     100 [000] irq_vectors:local_timer_entry: vector=236\n"
	  "1970-01-01 00:00:01.000005            <...>     100 [000] irq_vectors:local_timer_exit: vector=236\n"
	  "1970-01-01 00:00:01.001000            <...>     101 [001] irq_vectors:local_timer_entry: vector=236\n"
	  "1970-01-01 00:00:01.001015            <...>     101 [001] irq_vectors:local_timer_exit: vector=237\n"
	  "1970-01-01 00:00:01.002000            <...>     102 [000] irq_vectors:local_timer_entry: vector=236\n"
	  "1970-01-01 00:00:01.002025            <...>     102 [000] irq_vectors:local_timer_exit: vector=238\n" },
	{ "trace", EV " --json", false,
	  "{\"type\":\"event\",\"time_ns\":1000000000,\"comm\":\"<...>\",\"pid\":100,\"tid\":100,\"cpu\":0,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}}\n"
	  "{\"type\":\"event\",\"time_ns\":1000005000,\"comm\":\"<...>\",\"pid\":100,\"tid\":100,\"cpu\":0,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":236}}\n"
	  "{\"type\":\"event\",\"time_ns\":1001000000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}}\n"
	  "{\"type\":\"event\",\"time_ns\":1001015000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":237}}\n"
	  "{\"type\":\"event\",\"time_ns\":1002000000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}}\n"
	  "{\"type\":\"event\",\"time_ns\":1002025000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":238}}\n" },
	{ "trace", EV " -g", true,
	  "1970-01-01 00:00:01.000000            <...>     100 [000] irq_vectors:local_timer_entry: vector=236\n"
	  "    0000000000001000 [unknown] ([unknown])\n"
	  "    0000000000002000 [unknown] ([unknown])\n"
	  "1970-01-01 00:00:01.000005            <...>     100 [000] irq_vectors:local_timer_exit: vector=236\n"
	  "    0000000000001000 [unknown] ([unknown])\n"
	  "    0000000000002000 [unknown] ([unknown])\n"
	  "1970-01-01 00:00:01.001000            <...>     101 [001] irq_vectors:local_timer_entry: vector=236\n"
	  "    0000000000001000 [unknown] ([unknown])\n"
	  "    0000000000002000 [unknown] ([unknown])\n"
	  "1970-01-01 00:00:01.001015            <...>     101 [001] irq_vectors:local_timer_exit: vector=237\n"
	  "    0000000000001000 [unknown] ([unknown])\n"
	  "    0000000000002000 [unknown] ([unknown])\n"
	  "1970-01-01 00:00:01.002000            <...>     102 [000] irq_vectors:local_timer_entry: vector=236\n"
	  "    0000000000001000 [unknown] ([unknown])\n"
	  "    0000000000002000 [unknown] ([unknown])\n"
	  "1970-01-01 00:00:01.002025            <...>     102 [000] irq_vectors:local_timer_exit: vector=238\n"
	  "    0000000000001000 [unknown] ([unknown])\n"
	  "    0000000000002000 [unknown] ([unknown])\n" },
	{ "trace", EV " -g --json", true,
	  "{\"type\":\"event\",\"time_ns\":1000000000,\"comm\":\"<...>\",\"pid\":100,\"tid\":100,\"cpu\":0,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]}\n"
	  "{\"type\":\"event\",\"time_ns\":1000005000,\"comm\":\"<...>\",\"pid\":100,\"tid\":100,\"cpu\":0,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":236},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]}\n"
	  "{\"type\":\"event\",\"time_ns\":1001000000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]}\n"
	  "{\"type\":\"event\",\"time_ns\":1001015000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":237},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]}\n"
	  "{\"type\":\"event\",\"time_ns\":1002000000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]}\n"
	  "{\"type\":\"event\",\"time_ns\":1002025000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":238},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]}\n" },
	{ "nested-trace", EV " --than 8us", false,
	  "local_timer: 15.000us key 1 depth 0\n"
	  "1970-01-01 00:00:01.001000            <...>     101 [001] irq_vectors:local_timer_entry: vector=236\n"
	  "1970-01-01 00:00:01.001015            <...>     101 [001] irq_vectors:local_timer_exit: vector=237\n"
	  "local_timer: 25.000us key 0 depth 0\n"
	  "1970-01-01 00:00:01.002000            <...>     102 [000] irq_vectors:local_timer_entry: vector=236\n"
	  "1970-01-01 00:00:01.002025            <...>     102 [000] irq_vectors:local_timer_exit: vector=238\n"
	  "CALL                             calls       total         min         avg         p50         p95         p99         max\n"
	  "local_timer                          3    45.000us     5.000us    15.000us    15.007us    25.000us    25.000us    25.000us\n" },
	{ "nested-trace", EV " --than 8us --json", false,
	  "{\"type\":\"slow\",\"time_ns\":1001015000,\"func\":\"local_timer\",\"key\":1,\"depth\":0,\"duration_ns\":15000,\"start\":{\"time_ns\":1001000000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}},\"end\":{\"time_ns\":1001015000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":237}}}\n"
	  "{\"type\":\"slow\",\"time_ns\":1002025000,\"func\":\"local_timer\",\"key\":0,\"depth\":0,\"duration_ns\":25000,\"start\":{\"time_ns\":1002000000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}},\"end\":{\"time_ns\":1002025000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":238}}}\n"
	  "{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":0,\"interval_ns\":0,\"func\":\"local_timer\",\"depth\":0,\"path\":[\"local_timer\"],\"count\":3,\"total_ns\":45000,\"min_ns\":5000,\"avg_ns\":15000,\"p50_ns\":15007,\"p95_ns\":25000,\"p99_ns\":25000,\"max_ns\":25000}\n" },
	{ "nested-trace", EV " --than 8us -g --json", true,
	  "{\"type\":\"slow\",\"time_ns\":1001015000,\"func\":\"local_timer\",\"key\":1,\"depth\":0,\"duration_ns\":15000,\"start\":{\"time_ns\":1001000000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]},\"end\":{\"time_ns\":1001015000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":237},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]}}\n"
	  "{\"type\":\"slow\",\"time_ns\":1002025000,\"func\":\"local_timer\",\"key\":0,\"depth\":0,\"duration_ns\":25000,\"start\":{\"time_ns\":1002000000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]},\"end\":{\"time_ns\":1002025000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":238},\"stack\":[{\"addr\":\"0x1000\",\"sym\":\"[unknown]\",\"dso\":null},{\"addr\":\"0x2000\",\"sym\":\"[unknown]\",\"dso\":null}]}}\n"
	  "{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":0,\"interval_ns\":0,\"func\":\"local_timer\",\"depth\":0,\"path\":[\"local_timer\"],\"count\":3,\"total_ns\":45000,\"min_ns\":5000,\"avg_ns\":15000,\"p50_ns\":15007,\"p95_ns\":25000,\"p99_ns\":25000,\"max_ns\":25000}\n" },
	{ "nested-trace", EV " --returns --json", false,
	  "{\"type\":\"return\",\"time_ns\":1000005000,\"cpu\":0,\"key\":0,\"func\":\"local_timer\",\"depth\":0,\"duration_ns\":5000}\n"
	  "{\"type\":\"return\",\"time_ns\":1001015000,\"cpu\":1,\"key\":1,\"func\":\"local_timer\",\"depth\":0,\"duration_ns\":15000}\n"
	  "{\"type\":\"return\",\"time_ns\":1002025000,\"cpu\":0,\"key\":0,\"func\":\"local_timer\",\"depth\":0,\"duration_ns\":25000}\n"
	  "{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":0,\"interval_ns\":0,\"func\":\"local_timer\",\"depth\":0,\"path\":[\"local_timer\"],\"count\":3,\"total_ns\":45000,\"min_ns\":5000,\"avg_ns\":15000,\"p50_ns\":15007,\"p95_ns\":25000,\"p99_ns\":25000,\"max_ns\":25000}\n" },
	{ "nested-trace", EV " --returns", false,
	  "1970-01-01 00:00:01.000005 [000]       0 | local_timer  5.000us\n"
	  "1970-01-01 00:00:01.001015 [001]       1 | local_timer  15.000us\n"
	  "1970-01-01 00:00:01.002025 [000]       0 | local_timer  25.000us\n"
	  "CALL                             calls       total         min         avg         p50         p95         p99         max\n"
	  "local_timer                          3    45.000us     5.000us    15.000us    15.007us    25.000us    25.000us    25.000us\n" },
	{ "multi-trace", "-e irq_vectors:local_timer_entry -e irq_vectors:local_timer_exit -k common_pid --than 8us", false,
	  "irq_vectors:local_timer_entry => irq_vectors:local_timer_exit: 15.000us key 101\n"
	  "1970-01-01 00:00:01.001000            <...>     101 [001] irq_vectors:local_timer_entry: vector=236\n"
	  "1970-01-01 00:00:01.001015            <...>     101 [001] irq_vectors:local_timer_exit: vector=237\n"
	  "irq_vectors:local_timer_entry => irq_vectors:local_timer_exit: 25.000us key 102\n"
	  "1970-01-01 00:00:01.002000            <...>     102 [000] irq_vectors:local_timer_entry: vector=236\n"
	  "1970-01-01 00:00:01.002025            <...>     102 [000] irq_vectors:local_timer_exit: vector=238\n"
	  "START => END                                                       calls       total         min         avg         p50         p95         p99         max             >8us\n"
	  "irq_vectors:local_timer_entry => irq_vectors:local_timer_exit          3    45.000us     5.000us    15.000us    15.007us    25.000us    25.000us    25.000us        2 (66.7%)\n" },
	{ "multi-trace", "-e irq_vectors:local_timer_entry -e irq_vectors:local_timer_exit -k common_pid --than 8us --json", false,
	  "{\"type\":\"slow\",\"time_ns\":1001015000,\"from\":\"irq_vectors:local_timer_entry\",\"to\":\"irq_vectors:local_timer_exit\",\"key\":101,\"duration_ns\":15000,\"start\":{\"time_ns\":1001000000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}},\"end\":{\"time_ns\":1001015000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":237}}}\n"
	  "{\"type\":\"slow\",\"time_ns\":1002025000,\"from\":\"irq_vectors:local_timer_entry\",\"to\":\"irq_vectors:local_timer_exit\",\"key\":102,\"duration_ns\":25000,\"start\":{\"time_ns\":1002000000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}},\"end\":{\"time_ns\":1002025000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":238}}}\n"
	  "{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":0,\"interval_ns\":0,\"from\":\"irq_vectors:local_timer_entry\",\"to\":\"irq_vectors:local_timer_exit\",\"count\":3,\"total_ns\":45000,\"min_ns\":5000,\"avg_ns\":15000,\"p50_ns\":15007,\"p95_ns\":25000,\"p99_ns\":25000,\"max_ns\":25000,\"than_ns\":8000,\"slow\":2}\n" },
	{ "multi-trace", "-e irq_vectors:local_timer_entry -e irq_vectors:local_timer_exit -k common_pid --than 8us --detail", false,
	  "irq_vectors:local_timer_entry => irq_vectors:local_timer_exit: 15.000us key 101\n"
	  "S +        0ns  1970-01-01 00:00:01.001000            <...>     101 [001] irq_vectors:local_timer_entry: vector=236\n"
	  "E +   15.000us  1970-01-01 00:00:01.001015            <...>     101 [001] irq_vectors:local_timer_exit: vector=237\n"
	  "irq_vectors:local_timer_entry => irq_vectors:local_timer_exit: 25.000us key 102\n"
	  "S +        0ns  1970-01-01 00:00:01.002000            <...>     102 [000] irq_vectors:local_timer_entry: vector=236\n"
	  "E +   25.000us  1970-01-01 00:00:01.002025            <...>     102 [000] irq_vectors:local_timer_exit: vector=238\n"
	  "START => END                                                       calls       total         min         avg         p50         p95         p99         max             >8us\n"
	  "irq_vectors:local_timer_entry => irq_vectors:local_timer_exit          3    45.000us     5.000us    15.000us    15.007us    25.000us    25.000us    25.000us        2 (66.7%)\n" },
	{ "multi-trace", "-e irq_vectors:local_timer_entry -e irq_vectors:local_timer_exit -k common_pid --than 8us --detail --json", false,
	  "{\"type\":\"slow\",\"time_ns\":1001015000,\"from\":\"irq_vectors:local_timer_entry\",\"to\":\"irq_vectors:local_timer_exit\",\"key\":101,\"duration_ns\":15000,\"timeline\":[{\"mark\":\"S\",\"offset_ns\":0,\"time_ns\":1001000000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}},{\"mark\":\"E\",\"offset_ns\":15000,\"time_ns\":1001015000,\"comm\":\"<...>\",\"pid\":101,\"tid\":101,\"cpu\":1,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":237}}]}\n"
	  "{\"type\":\"slow\",\"time_ns\":1002025000,\"from\":\"irq_vectors:local_timer_entry\",\"to\":\"irq_vectors:local_timer_exit\",\"key\":102,\"duration_ns\":25000,\"timeline\":[{\"mark\":\"S\",\"offset_ns\":0,\"time_ns\":1002000000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_entry\",\"fields\":{\"vector\":236}},{\"mark\":\"E\",\"offset_ns\":25000,\"time_ns\":1002025000,\"comm\":\"<...>\",\"pid\":102,\"tid\":102,\"cpu\":0,\"event\":\"irq_vectors:local_timer_exit\",\"fields\":{\"vector\":238}}]}\n"
	  "{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":0,\"interval_ns\":0,\"from\":\"irq_vectors:local_timer_entry\",\"to\":\"irq_vectors:local_timer_exit\",\"count\":3,\"total_ns\":45000,\"min_ns\":5000,\"avg_ns\":15000,\"p50_ns\":15007,\"p95_ns\":25000,\"p99_ns\":25000,\"max_ns\":25000,\"than_ns\":8000,\"slow\":2}\n" },

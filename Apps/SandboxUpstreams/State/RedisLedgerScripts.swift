import RedisClient

/// The Lua scripts of ``RedisPaymentLedger``. Each runs atomically in Redis, so no interleaving
/// of sandbox sets sharing the store sees a half-made change.
enum RedisLedgerScripts {
    /// Looks up an idempotency record and takes the key's lock when there is none.
    ///
    /// KEYS: the record, the lock, and optionally a counter to draw the new entry's id from.
    /// ARGV: the lock's token, the lock's lifetime in milliseconds.
    /// Returns `{'recorded', fingerprint, status, headers, body}`, `{'locked', id}` (0 without a
    /// counter) or `{'busy'}`.
    static let begin = RedisScript(
        """
        local r = redis.call('HMGET', KEYS[1], 'fp', 'status', 'headers', 'body')
        if r[1] then return {'recorded', r[1], r[2], r[3], r[4]} end
        if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
          if KEYS[3] then return {'locked', redis.call('INCR', KEYS[3])} end
          return {'locked', 0}
        end
        return {'busy'}
        """)

    /// Runs a ledger operation and keeps its answer, or keeps an answer alone, or releases the
    /// lock; only while the caller holds the key's lock and no answer is kept yet.
    ///
    /// The checks are ``LedgerBook``'s, in the same order: a failure returns
    /// `{'fail', kind, ...}` with nothing changed, and the caller keeps the failure's answer with
    /// `answer`. Amounts and balances stay at most 2^53 - 1, so Lua's numbers compare them
    /// exactly; the balances move with `HINCRBY` on the decimal text.
    ///
    /// KEYS: 1 the record, 2 the lock, 3 the seeded marker; for `charge` and `refund` also 4 the
    /// wallet to debit, 5 the wallet to credit, 6 the new entry; for `refund` 7 the charge.
    /// ARGV: 1 the operation (`charge`, `refund`, `answer`, `release`), 2 the lock's token, 3 the
    /// record's lifetime in milliseconds, 4 the fingerprint, 5 the status, 6 the header fields,
    /// 7 the body; for `charge` and `refund` 8 the largest balance, 9 the amount, 10 the
    /// currency, then for `charge` 11 the payer, 12 the payee, 13 `1` with a memo, 14 the memo,
    /// 15 the creation time; for `refund` 11 the charge's id, 12 the creation time.
    /// Returns `{'ok'}`, `{'recorded'}`, `{'lost'}` (the lock is not the caller's), `{'unseeded'}`
    /// or `{'fail', ...}`.
    static let operation = RedisScript(
        """
        if redis.call('EXISTS', KEYS[1]) == 1 then return {'recorded'} end
        if redis.call('GET', KEYS[2]) ~= ARGV[2] then return {'lost'} end
        local op = ARGV[1]
        if op == 'release' then
          redis.call('DEL', KEYS[2])
          return {'ok'}
        end
        if op == 'charge' or op == 'refund' then
          if redis.call('EXISTS', KEYS[3]) == 0 then return {'unseeded'} end
          local max = tonumber(ARGV[8])
          local amount = tonumber(ARGV[9])
          if op == 'charge' then
            local payer = redis.call('HMGET', KEYS[4], 'balance', 'currency')
            local payee = redis.call('HMGET', KEYS[5], 'balance', 'currency')
            if not payer[1] then return {'fail', 'wallet', 'payer'} end
            if not payee[1] then return {'fail', 'wallet', 'payee'} end
            if payer[2] ~= ARGV[10] then return {'fail', 'currency', 'payer', payer[2]} end
            if payee[2] ~= ARGV[10] then return {'fail', 'currency', 'payee', payee[2]} end
            if tonumber(payer[1]) < amount then return {'fail', 'funds', 'payer'} end
            if tonumber(payee[1]) > max - amount then return {'fail', 'limit', 'payee'} end
            redis.call('HSET', KEYS[6], 'payer', ARGV[11], 'payee', ARGV[12], 'amount', ARGV[9],
              'currency', ARGV[10], 'refunded', '0', 'createdAt', ARGV[15])
            if ARGV[13] == '1' then redis.call('HSET', KEYS[6], 'memo', ARGV[14]) end
          else
            local charge = redis.call('HMGET', KEYS[7], 'amount', 'refunded')
            if not charge[1] then return {'fail', 'nocharge'} end
            local left = tonumber(charge[1]) - tonumber(charge[2])
            if amount > left then return {'fail', 'exceeds', left} end
            local payee = redis.call('HGET', KEYS[4], 'balance')
            local payer = redis.call('HGET', KEYS[5], 'balance')
            if not payee or not payer then return {'fail', 'chargewallet'} end
            if tonumber(payee) < amount then return {'fail', 'funds', 'payee'} end
            if tonumber(payer) > max - amount then return {'fail', 'limit', 'payer'} end
            redis.call('HINCRBY', KEYS[7], 'refunded', ARGV[9])
            redis.call('HSET', KEYS[6], 'charge', ARGV[11], 'amount', ARGV[9], 'currency', ARGV[10],
              'createdAt', ARGV[12])
          end
          redis.call('HINCRBY', KEYS[4], 'balance', '-' .. ARGV[9])
          redis.call('HINCRBY', KEYS[5], 'balance', ARGV[9])
        elseif op ~= 'answer' then
          return redis.error_reply('ERR unknown ledger operation')
        end
        redis.call('HSET', KEYS[1], 'fp', ARGV[4], 'status', ARGV[5], 'headers', ARGV[6], 'body', ARGV[7])
        redis.call('PEXPIRE', KEYS[1], ARGV[3])
        redis.call('DEL', KEYS[2])
        return {'ok'}
        """)

    /// Creates the seeded wallets that do not exist yet (never resetting one) and sets the
    /// seeded marker.
    ///
    /// KEYS: 1 the marker, then the wallets. ARGV: each wallet's balance and currency.
    static let seed = RedisScript(
        """
        for i = 2, #KEYS do
          if redis.call('EXISTS', KEYS[i]) == 0 then
            redis.call('HSET', KEYS[i], 'balance', ARGV[2 * i - 3], 'currency', ARGV[2 * i - 2])
          end
        end
        redis.call('SET', KEYS[1], '1')
        return 1
        """)
}

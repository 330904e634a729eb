package app.vigie.db;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.TransactionManager;

/** Runs a {@link UnitOfWork} method in its transaction, retried as {@link Transactions#run} retries. */
@UnitOfWork
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
public class UnitOfWorkInterceptor {
    @Inject
    TransactionManager tm;

    @AroundInvoke
    Object inTransaction(InvocationContext ic) throws Exception {
        return Transactions.around(tm, ic::proceed);
    }
}

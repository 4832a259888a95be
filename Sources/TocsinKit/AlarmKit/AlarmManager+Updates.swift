extension AlarmManager {
    /// The application's alarms after every change — AlarmKit's `AlarmManager.AlarmUpdates`, the
    /// asynchronous sequence `alarmUpdates` returns. It never ends while the manager exists.
    public struct AlarmUpdates: AsyncSequence, Sendable {
        /// Each element is the whole list, oldest first.
        public typealias Element = [Alarm]
        /// It never fails.
        public typealias Failure = Never

        let lists: AsyncStream<[Alarm]>

        /// Iterates the lists as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<[Alarm]>.Iterator

            /// The next list, once there is one.
            public mutating func next() async -> [Alarm]? {
                await base.next()
            }

            /// The next list, waiting in `actor`'s isolation (what `for await` calls).
            public mutating func next(isolation actor: isolated (any Actor)?) async -> [Alarm]? {
                await base.next(isolation: actor)
            }
        }

        /// An iterator over the lists.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: lists.makeAsyncIterator())
        }
    }

    /// The application's authorization after every change — AlarmKit's
    /// `AlarmManager.AlarmAuthorizationStateUpdates`, the asynchronous sequence
    /// `authorizationUpdates` returns. It never ends while the manager exists.
    public struct AlarmAuthorizationStateUpdates: AsyncSequence, Sendable {
        /// Each element is the state now.
        public typealias Element = AuthorizationState
        /// It never fails.
        public typealias Failure = Never

        let states: AsyncStream<AuthorizationState>

        /// Iterates the states as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<AuthorizationState>.Iterator

            /// The next state, once there is one.
            public mutating func next() async -> AuthorizationState? {
                await base.next()
            }

            /// The next state, waiting in `actor`'s isolation (what `for await` calls).
            public mutating func next(isolation actor: isolated (any Actor)?) async -> AuthorizationState? {
                await base.next(isolation: actor)
            }
        }

        /// An iterator over the states.
        public func makeAsyncIterator() -> Iterator {
            Iterator(base: states.makeAsyncIterator())
        }
    }
}

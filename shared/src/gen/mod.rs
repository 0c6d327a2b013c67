//! Graph generation by canonical augmentation, shardable by canonical-form prefix.

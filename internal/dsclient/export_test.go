package dsclient

// StrategySpec is strategySpec, for the fuzz target.
var StrategySpec = strategySpec

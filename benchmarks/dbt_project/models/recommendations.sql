select * from read_parquet('{{ env_var("RANKWISE_BENCHMARK_DATA") }}/recommendations.parquet')
